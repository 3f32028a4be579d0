#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address with a port: where a datagram came from or goes to.
///
/// IPv4 addresses are kept in the first four bytes, network order. Hashable and cheap to
/// copy (no heap storage), so it can key per-peer tables on the hot path.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    public enum Family: UInt8, Sendable { case ipv4 = 4, ipv6 = 6 }

    public var family: Family
    /// Address bytes in network order: 4 used for IPv4, 16 for IPv6.
    public var high: UInt64
    public var low: UInt64
    public var port: UInt16
    /// IPv6 zone (interface index), 0 when none.
    public var scopeID: UInt32

    /// An IPv4 address from its four octets in network order.
    public init(ipv4 a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, port: UInt16) {
        self.init(family: .ipv4, high: UInt64(a) << 56 | UInt64(b) << 48 | UInt64(c) << 40 | UInt64(d) << 32,
                  low: 0, port: port, scopeID: 0)
    }

    /// An address from its parts; `high` and `low` hold the address bytes in network order.
    public init(family: Family, high: UInt64, low: UInt64, port: UInt16, scopeID: UInt32) {
        self.family = family
        self.high = high
        self.low = low
        self.port = port
        self.scopeID = scopeID
    }

    /// An address from raw bytes: 4 for IPv4, 16 for IPv6; nil for any other length.
    public init?<Bytes: Collection>(bytes: Bytes, port: UInt16, scopeID: UInt32 = 0) where Bytes.Element == UInt8 {
        let array = Array(bytes)
        switch array.count {
        case 4:
            self.init(ipv4: array[0], array[1], array[2], array[3], port: port)
        case 16:
            self.init(family: .ipv6, high: array[0..<8].reduce(0) { $0 << 8 | UInt64($1) },
                      low: array[8..<16].reduce(0) { $0 << 8 | UInt64($1) }, port: port, scopeID: scopeID)
        default:
            return nil
        }
    }

    /// The address bytes in network order (4 or 16 of them).
    public var bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(16)
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: high >> UInt64(shift))) }
        if family == .ipv4 { return Array(out[0..<4]) }
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: low >> UInt64(shift))) }
        return out
    }

    /// The same host with another port.
    public func with(port: UInt16) -> SocketAddress {
        var copy = self
        copy.port = port
        return copy
    }

    /// `127.0.0.1` and `::1` and the rest of 127.0.0.0/8.
    public var isLoopback: Bool {
        switch family {
        case .ipv4: return high >> 56 == 127
        case .ipv6: return high == 0 && low == 1
        }
    }

    /// The address without a port, as written in SDP candidates and URLs.
    public var host: String {
        let raw = bytes
        switch family {
        case .ipv4:
            return raw.map(String.init).joined(separator: ".")
        case .ipv6:
            var text = [CChar](repeating: 0, count: 64)
            var storage = in6_addr()
            withUnsafeMutableBytes(of: &storage) { $0.copyBytes(from: raw) }
            inet_ntop(AF_INET6, &storage, &text, socklen_t(text.count))
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// `127.0.0.1:5000` or `[::1]:5000`.
    public var description: String {
        family == .ipv4 ? "\(host):\(port)" : "[\(host)]:\(port)"
    }

    /// Parses a host address without a port (`127.0.0.1`, `::1`).
    public init?(host: String, port: UInt16) {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v4) { Array($0) }, port: port)
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v6) { Array($0) }, port: port)
            return
        }
        return nil
    }

    /// Parses `host:port` with an IPv4 host or `[host]:port` with an IPv6 host.
    public init?(_ text: String) {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            hostPart = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portPart = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        guard let port = UInt16(portPart) else { return nil }
        self.init(host: String(hostPart), port: port)
    }
}
