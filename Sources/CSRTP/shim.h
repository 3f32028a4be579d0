// libsrtp2: the reference implementation rtcswarm's own SRTP code is checked against,
// bit for bit, in tests.
#ifndef RTCSWARM_CSRTP_SHIM_H
#define RTCSWARM_CSRTP_SHIM_H
#include <srtp2/srtp.h>
#endif
