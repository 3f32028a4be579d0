import CShims
import RTCBase

extension SocketAddress {
    /// The C form used by CShims' socket calls.
    var cAddress: rs_address {
        var address = rs_address()
        address.family = family == .ipv4 ? UInt16(RS_AF_INET) : UInt16(RS_AF_INET6)
        address.port = port
        address.scope_id = scopeID
        let raw = bytes
        withUnsafeMutableBytes(of: &address.bytes) { $0.copyBytes(from: raw) }
        return address
    }

    /// Reads an address filled in by the kernel; nil for a family other than IPv4/IPv6.
    init?(_ address: rs_address) {
        let count: Int
        switch Int32(address.family) {
        case RS_AF_INET: count = 4
        case RS_AF_INET6: count = 16
        default: return nil
        }
        let raw = withUnsafeBytes(of: address.bytes) { Array($0.prefix(count)) }
        self.init(bytes: raw, port: address.port, scopeID: address.scope_id)
    }
}
