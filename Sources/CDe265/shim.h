// libde265 (H.265 decoder); its C API imports into Swift as it is.
#ifndef RTCSWARM_CDE265_SHIM_H
#define RTCSWARM_CDE265_SHIM_H
#include <libde265/de265.h>
#endif
