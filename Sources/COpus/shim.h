// libopus. opus_encoder_ctl and opus_decoder_ctl are variadic, which Swift cannot call:
// each request rtcswarm uses has a typed wrapper here.
#ifndef RTCSWARM_COPUS_SHIM_H
#define RTCSWARM_COPUS_SHIM_H
#include <opus/opus.h>

static inline int rs_opus_set_bitrate(OpusEncoder *encoder, opus_int32 bitrate) {
    return opus_encoder_ctl(encoder, OPUS_SET_BITRATE(bitrate));
}
static inline int rs_opus_set_complexity(OpusEncoder *encoder, opus_int32 complexity) {
    return opus_encoder_ctl(encoder, OPUS_SET_COMPLEXITY(complexity));
}
static inline int rs_opus_set_inband_fec(OpusEncoder *encoder, opus_int32 enabled) {
    return opus_encoder_ctl(encoder, OPUS_SET_INBAND_FEC(enabled));
}
static inline int rs_opus_set_packet_loss_percent(OpusEncoder *encoder, opus_int32 percent) {
    return opus_encoder_ctl(encoder, OPUS_SET_PACKET_LOSS_PERC(percent));
}
static inline int rs_opus_set_dtx(OpusEncoder *encoder, opus_int32 enabled) {
    return opus_encoder_ctl(encoder, OPUS_SET_DTX(enabled));
}
static inline int rs_opus_get_bitrate(OpusEncoder *encoder, opus_int32 *bitrate) {
    return opus_encoder_ctl(encoder, OPUS_GET_BITRATE(bitrate));
}
static inline int rs_opus_get_lookahead(OpusEncoder *encoder, opus_int32 *samples) {
    return opus_encoder_ctl(encoder, OPUS_GET_LOOKAHEAD(samples));
}
static inline int rs_opus_decoder_last_packet_duration(OpusDecoder *decoder, opus_int32 *samples) {
    return opus_decoder_ctl(decoder, OPUS_GET_LAST_PACKET_DURATION(samples));
}
#endif
