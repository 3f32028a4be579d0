/// Appends big-endian (network order) fields to a growing byte array.
///
/// Writers can be reused across packets with `reset()`, which keeps the allocated
/// capacity: hot paths serialize without allocating.
public struct ByteWriter: Sendable {
    public var bytes: [UInt8]

    @inlinable
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inlinable public var count: Int { bytes.count }

    /// Empties the writer and keeps its storage.
    @inlinable
    public mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    @inlinable public mutating func writeU8(_ value: UInt8) { bytes.append(value) }

    @inlinable
    public mutating func writeU16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    @inlinable
    public mutating func writeU24(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    @inlinable
    public mutating func writeU32(_ value: UInt32) {
        writeU16(UInt16(truncatingIfNeeded: value >> 16))
        writeU16(UInt16(truncatingIfNeeded: value))
    }

    @inlinable
    public mutating func writeU64(_ value: UInt64) {
        writeU32(UInt32(truncatingIfNeeded: value >> 32))
        writeU32(UInt32(truncatingIfNeeded: value))
    }

    @inlinable
    public mutating func write<Bytes: Sequence>(_ data: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: data)
    }

    @inlinable
    public mutating func writeZeros(_ count: Int) {
        bytes.append(contentsOf: repeatElement(0, count: count))
    }

    /// Overwrites two bytes already written at `offset` (for length fields known late).
    @inlinable
    public mutating func patchU16(_ value: UInt16, at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value)
    }

    /// Overwrites four bytes already written at `offset`.
    @inlinable
    public mutating func patchU32(_ value: UInt32, at offset: Int) {
        patchU16(UInt16(truncatingIfNeeded: value >> 16), at: offset)
        patchU16(UInt16(truncatingIfNeeded: value), at: offset + 2)
    }

    /// Hands the bytes over and leaves the writer empty.
    @inlinable
    public mutating func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }
}
