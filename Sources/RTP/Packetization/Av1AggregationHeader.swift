import RTCBase

/// The one-byte aggregation header that opens every AV1 RTP payload (AV1 RTP payload
/// format v1.0, 4.4): Z, Y, W and N, then three reserved zero bits.
public struct Av1AggregationHeader: Equatable, Sendable {
    /// Z: the first OBU element continues an OBU fragment of the previous packet.
    public var continuesFragment: Bool
    /// Y: the last OBU element is a fragment continued in the next packet.
    public var endsWithFragment: Bool
    /// W: the number of OBU elements when 1 to 3 (the last then has no length field);
    /// 0 when every element has one.
    public var elementCount: Int
    /// N: the first packet of a coded video sequence.
    public var startsSequence: Bool

    public init(continuesFragment: Bool, endsWithFragment: Bool, elementCount: Int, startsSequence: Bool) {
        precondition((0...3).contains(elementCount), "W is two bits")
        self.continuesFragment = continuesFragment
        self.endsWithFragment = endsWithFragment
        self.elementCount = elementCount
        self.startsSequence = startsSequence
    }

    /// Parses the byte; the reserved bits are ignored, as receivers must (4.4).
    public init(_ byte: UInt8) throws(ParseError) {
        continuesFragment = byte & 0x80 != 0
        endsWithFragment = byte & 0x40 != 0
        elementCount = Int(byte >> 4 & 0x03)
        startsSequence = byte & 0x08 != 0
        guard !(startsSequence && continuesFragment) else { throw .invalid("AV1 aggregation header with N and Z both set") }
    }

    public var byte: UInt8 {
        (continuesFragment ? 0x80 : 0) | (endsWithFragment ? 0x40 : 0) | UInt8(elementCount) << 4 | (startsSequence ? 0x08 : 0)
    }
}
