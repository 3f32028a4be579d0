import RTCBase

/// What differs between the NAL-unit payload formats of H.264 (RFC 6184) and H.265
/// (RFC 7798): the size of the NAL unit header and how the aggregation and fragmentation
/// packets write theirs. `NalPacketizer` and `NalDepacketizer` do the rest the same way.
public protocol NalPayloadFormat: Sendable {
    /// Bytes of the NAL unit header (H.264: 1, H.265: 2).
    static var nalHeaderSize: Int { get }
    /// Bytes before the first size field of an aggregation packet (STAP-A: 1, AP: 2).
    static var aggregationHeaderSize: Int { get }
    /// Bytes before the data of a fragment (FU-A: 2, H.265 FU: 3).
    static var fragmentHeaderSize: Int { get }

    /// The header of an aggregation packet holding `units` (ranges of `frame`).
    static func aggregationHeader(_ frame: [UInt8], _ units: ArraySlice<Range<Int>>) -> [UInt8]
    /// The header of one fragment of the NAL unit whose header starts at `nalHeader`.
    static func fragmentHeader(_ frame: [UInt8], nalHeader: Int, start: Bool, end: Bool) -> [UInt8]

    /// What the payload `reader` starts with (peeked, nothing consumed).
    static func classify(_ reader: ByteReader) throws(ParseError) -> NalPacketKind
    /// The NAL unit type of a NAL unit that starts at `reader`.
    static func nalType(_ reader: ByteReader) throws(ParseError) -> UInt8
    /// The NAL unit header a fragmentation unit stands for, from its payload header and FU type.
    static func reconstructedHeader(_ payload: ByteReader, fragmentType: UInt8) throws(ParseError) -> [UInt8]

    /// NAL unit types of a keyframe (H.264 IDR, H.265 IRAP pictures).
    static func isKeyframe(nalType: UInt8) -> Bool
    /// NAL unit types that can only come first in an access unit (delimiter, parameter sets).
    static func startsAccessUnit(nalType: UInt8) -> Bool
}

/// The three packet shapes both payload formats have.
public enum NalPacketKind: Equatable, Sendable {
    /// One whole NAL unit (RFC 6184 5.6, RFC 7798 4.4.1).
    case single
    /// Several NAL units, each after a 16-bit size (STAP-A, RFC 6184 5.7.1; AP, RFC 7798 4.4.2).
    case aggregation
    /// A piece of one NAL unit: its type and the S and E bits (FU-A, RFC 6184 5.8; FU,
    /// RFC 7798 4.4.3).
    case fragment(type: UInt8, start: Bool, end: Bool)
}
