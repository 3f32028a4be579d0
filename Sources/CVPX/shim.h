// libvpx (VP8, VP9). vpx_codec_enc_init and vpx_codec_dec_init are macros that pass the
// ABI version, and vpx_codec_control_ is variadic: typed wrappers for Swift.
#ifndef RTCSWARM_CVPX_SHIM_H
#define RTCSWARM_CVPX_SHIM_H
#include <vpx/vp8cx.h>
#include <vpx/vp8dx.h>
#include <vpx/vpx_decoder.h>
#include <vpx/vpx_encoder.h>

static inline vpx_codec_err_t rs_vpx_encoder_init(vpx_codec_ctx_t *ctx, vpx_codec_iface_t *iface,
                                                  const vpx_codec_enc_cfg_t *cfg,
                                                  vpx_codec_flags_t flags) {
    return vpx_codec_enc_init(ctx, iface, cfg, flags);
}
static inline vpx_codec_err_t rs_vpx_decoder_init(vpx_codec_ctx_t *ctx, vpx_codec_iface_t *iface,
                                                  const vpx_codec_dec_cfg_t *cfg,
                                                  vpx_codec_flags_t flags) {
    return vpx_codec_dec_init(ctx, iface, cfg, flags);
}
/// vpx_codec_control_ with an int argument (VP8E_SET_CPUUSED, VP9E_SET_ROW_MT, ...).
static inline vpx_codec_err_t rs_vpx_control_int(vpx_codec_ctx_t *ctx, int id, int value) {
    return vpx_codec_control_(ctx, id, value);
}
/// vpx_codec_control_ with an int pointer argument (VP8D_GET_FRAME_CORRUPTED, ...).
static inline vpx_codec_err_t rs_vpx_control_int_pointer(vpx_codec_ctx_t *ctx, int id, int *value) {
    return vpx_codec_control_(ctx, id, value);
}
#endif
