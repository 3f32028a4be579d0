"""Prints {"interface": flags, ...} as getifaddrs() reports them in this process, one
JSON line: the check that loopback_ifaddrs.c (LD_PRELOAD) clears IFF_LOOPBACK (0x8).

usage: [LD_PRELOAD=.build/interop/libloopback_ifaddrs.so] python3 ifaddrs_flags.py
"""
import ctypes
import json


class IfAddrs(ctypes.Structure):
    pass


IfAddrs._fields_ = [("ifa_next", ctypes.POINTER(IfAddrs)), ("ifa_name", ctypes.c_char_p),
                    ("ifa_flags", ctypes.c_uint)]


def main():
    libc = ctypes.CDLL(None, use_errno=True)
    head = ctypes.POINTER(IfAddrs)()
    if libc.getifaddrs(ctypes.byref(head)) != 0:
        raise SystemExit(f"getifaddrs failed: errno {ctypes.get_errno()}")
    flags = {}
    entry = head
    while entry:
        flags[entry.contents.ifa_name.decode()] = entry.contents.ifa_flags
        entry = entry.contents.ifa_next
    libc.freeifaddrs(head)
    print(json.dumps(flags))


if __name__ == "__main__":
    main()
