/*
 * LD_PRELOAD shim for servers that skip loopback interfaces when they gather ICE host
 * candidates (libnice, so Janus and GStreamer's webrtcbin): getifaddrs() answers as
 * libc does, except that IFF_LOOPBACK is cleared on every interface, so 127.0.0.1 is
 * gathered like any other address. Pair it with the server's own interface allow-list
 * (Janus: ice_enforce_list = "lo") or a network namespace that has only lo, so that
 * nothing but loopback is offered.
 *
 * Build: cc -shared -fPIC -O2 -o libloopback_ifaddrs.so loopback_ifaddrs.c -ldl
 * Use:   LD_PRELOAD=/path/libloopback_ifaddrs.so janus -C ...
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stddef.h>

typedef int (*getifaddrs_fn)(struct ifaddrs **);

int getifaddrs(struct ifaddrs **list) {
    static getifaddrs_fn real = NULL;
    if (real == NULL) {
        real = (getifaddrs_fn)dlsym(RTLD_NEXT, "getifaddrs");
        if (real == NULL) {
            errno = ENOSYS;
            return -1;
        }
    }
    int result = real(list);
    if (result != 0) return result;
    for (struct ifaddrs *entry = *list; entry != NULL; entry = entry->ifa_next) {
        entry->ifa_flags &= ~(unsigned int)IFF_LOOPBACK;
    }
    return 0;
}
