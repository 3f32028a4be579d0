// libaom (AV1 encoder and decoder). aom_codec_enc_init and aom_codec_dec_init are macros
// that pass the ABI version, and aom_codec_control is variadic: typed wrappers for Swift.
#ifndef RTCSWARM_CAOM_SHIM_H
#define RTCSWARM_CAOM_SHIM_H
#include <aom/aom_decoder.h>
#include <aom/aom_encoder.h>
#include <aom/aomcx.h>
#include <aom/aomdx.h>

static inline aom_codec_err_t rs_aom_encoder_init(aom_codec_ctx_t *ctx, aom_codec_iface_t *iface,
                                                  const aom_codec_enc_cfg_t *cfg,
                                                  aom_codec_flags_t flags) {
    return aom_codec_enc_init(ctx, iface, cfg, flags);
}
static inline aom_codec_err_t rs_aom_decoder_init(aom_codec_ctx_t *ctx, aom_codec_iface_t *iface,
                                                  const aom_codec_dec_cfg_t *cfg,
                                                  aom_codec_flags_t flags) {
    return aom_codec_dec_init(ctx, iface, cfg, flags);
}
/// aom_codec_control with an int argument (AOME_SET_CPUUSED, AV1E_SET_AQ_MODE, ...).
static inline aom_codec_err_t rs_aom_control_int(aom_codec_ctx_t *ctx, int id, int value) {
    return aom_codec_control(ctx, id, value);
}
/// aom_codec_control with an int pointer argument (AOMD_GET_FRAME_CORRUPTED).
static inline aom_codec_err_t rs_aom_control_int_pointer(aom_codec_ctx_t *ctx, int id, int *value) {
    return aom_codec_control(ctx, id, value);
}
#endif
