/// Serial number arithmetic (RFC 1982) for TSNs (32 bits) and SSNs (16 bits), which wrap:
/// RFC 9260 1.6.
extension UInt32 {
    /// True when `self` comes before `other` in TSN order.
    @inlinable func tsnPrecedes(_ other: UInt32) -> Bool { self != other && (other &- self) < 0x8000_0000 }
    @inlinable func tsnPrecedesOrEquals(_ other: UInt32) -> Bool { self == other || tsnPrecedes(other) }
}

extension UInt16 {
    /// True when `self` comes before `other` in SSN order.
    @inlinable func ssnPrecedes(_ other: UInt16) -> Bool { self != other && (other &- self) < 0x8000 }
}
