// x265 (H.265 encoder). `x265_encoder_open` is a macro naming the build-versioned symbol
// (x265_encoder_open_199 for 3.5), which Swift cannot call, and `x265_version_str` a
// mutable global, which Swift 6 will not read; these wrappers can.
#ifndef RTCSWARM_CX265_SHIM_H
#define RTCSWARM_CX265_SHIM_H
#include <stdint.h>
#include <x265.h>

static inline x265_encoder *rs_x265_encoder_open(x265_param *param) {
    return x265_encoder_open(param);
}
static inline const char *rs_x265_version(void) {
    return x265_version_str;
}
#endif
