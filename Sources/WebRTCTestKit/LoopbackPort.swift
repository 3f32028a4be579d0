#if canImport(Glibc)
import Glibc
#endif

/// Ports on 127.0.0.1 for servers that tests start (coturn, Janus), and connecting to them.
public enum LoopbackPort {
    /// A port that was free a moment ago: the kernel's choice when binding port 0 with a
    /// socket of `type` (SOCK_DGRAM or SOCK_STREAM).
    public static func free(_ type: __socket_type) throws -> UInt16 {
        let fd = socket(AF_INET, Int32(type.rawValue), 0)
        guard fd >= 0 else { throw ExternalToolError("socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw ExternalToolError("bind(127.0.0.1:0) failed: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// connect(2) of `fd` to 127.0.0.1:`port`: 0, or -1 with errno set (EINPROGRESS for
    /// a non-blocking socket still connecting).
    public static func connect(_ fd: Int32, port: UInt16) -> Int32 {
        var address = address(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// 127.0.0.1:`port` as a C socket address.
    static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
