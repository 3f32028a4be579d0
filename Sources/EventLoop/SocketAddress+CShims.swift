import CShims
import RTCBase

/// Conversions to and from the C form, done for every datagram sent or received: they read
/// and write the address words in place (network order), allocating nothing.
extension SocketAddress {
    /// The C form used by CShims' socket calls.
    var cAddress: rs_address {
        var address = rs_address()
        address.family = family == .ipv4 ? UInt16(RS_AF_INET) : UInt16(RS_AF_INET6)
        address.port = port
        address.scope_id = scopeID
        withUnsafeMutableBytes(of: &address.bytes) { raw in
            switch family {
            case .ipv4:
                raw.storeBytes(of: UInt32(truncatingIfNeeded: high >> 32).bigEndian, as: UInt32.self)
            case .ipv6:
                raw.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
                raw.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
            }
        }
        return address
    }

    /// Reads an address filled in by the kernel; nil for a family other than IPv4/IPv6.
    init?(_ address: rs_address) {
        let bytes = address.bytes
        switch Int32(address.family) {
        case RS_AF_INET:
            let word = withUnsafeBytes(of: bytes) { UInt32(bigEndian: $0.loadUnaligned(as: UInt32.self)) }
            self.init(family: .ipv4, high: UInt64(word) << 32, low: 0, port: address.port, scopeID: 0)
        case RS_AF_INET6:
            let (high, low) = withUnsafeBytes(of: bytes) {
                (UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
            }
            self.init(family: .ipv6, high: high, low: low, port: address.port, scopeID: address.scope_id)
        default:
            return nil
        }
    }
}
