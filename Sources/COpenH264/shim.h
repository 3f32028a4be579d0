// OpenH264 (Cisco). Its C API is a table of function pointers reached through a pointer to
// a pointer; these wrappers make each call a plain function for Swift.
#ifndef RTCSWARM_COPENH264_SHIM_H
#define RTCSWARM_COPENH264_SHIM_H
#include <stdbool.h>
#include <wels/codec_api.h>

static inline int rs_h264_encoder_initialize(ISVCEncoder *encoder, const SEncParamExt *params) {
    return (*encoder)->InitializeExt(encoder, params);
}
static inline int rs_h264_encoder_default_params(ISVCEncoder *encoder, SEncParamExt *params) {
    return (*encoder)->GetDefaultParams(encoder, params);
}
static inline int rs_h264_encoder_encode(ISVCEncoder *encoder, const SSourcePicture *picture,
                                         SFrameBSInfo *info) {
    return (*encoder)->EncodeFrame(encoder, picture, info);
}
static inline int rs_h264_encoder_force_idr(ISVCEncoder *encoder) {
    return (*encoder)->ForceIntraFrame(encoder, true);
}
static inline int rs_h264_encoder_set_option(ISVCEncoder *encoder, ENCODER_OPTION option, void *value) {
    return (*encoder)->SetOption(encoder, option, value);
}
static inline int rs_h264_encoder_uninitialize(ISVCEncoder *encoder) {
    return (*encoder)->Uninitialize(encoder);
}
static inline long rs_h264_decoder_initialize(ISVCDecoder *decoder, const SDecodingParam *params) {
    return (*decoder)->Initialize(decoder, params);
}
static inline DECODING_STATE rs_h264_decoder_decode(ISVCDecoder *decoder, const unsigned char *data,
                                                    int length, unsigned char **planes,
                                                    SBufferInfo *info) {
    return (*decoder)->DecodeFrameNoDelay(decoder, data, length, planes, info);
}
static inline long rs_h264_decoder_set_option(ISVCDecoder *decoder, DECODER_OPTION option, void *value) {
    return (*decoder)->SetOption(decoder, option, value);
}
static inline long rs_h264_decoder_uninitialize(ISVCDecoder *decoder) {
    return (*decoder)->Uninitialize(decoder);
}
#endif
