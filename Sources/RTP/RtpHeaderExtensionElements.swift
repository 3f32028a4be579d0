/// The elements of an RTP header extension block, read in place (RFC 8285).
///
/// One-byte form (profile 0xBEDE, 4.2): each element starts with ID (4 bits) and
/// length - 1 (4 bits); ID 0 is a padding byte and ID 15 stops parsing. Two-byte form
/// (profile 0x100X, 4.3): an ID byte (0 is padding) and a length byte. Elements that
/// would run past the block end iteration quietly, as 4.2 and 4.3 ask. Other profiles
/// have no elements.
public struct RtpHeaderExtensionElements: Sequence, Sendable {
    /// One element: its ID and where its data lies in the packet.
    public struct Element: Equatable, Sendable {
        public var id: UInt8
        public var range: Range<Int>
    }

    public static let oneByteProfile: UInt16 = 0xBEDE
    public static let twoByteProfile: UInt16 = 0x1000

    let bytes: [UInt8]
    let range: Range<Int>
    let profile: UInt16

    public struct Iterator: IteratorProtocol {
        let bytes: [UInt8]
        var offset: Int
        let end: Int
        let twoByte: Bool

        public mutating func next() -> Element? {
            while offset < end {
                let first = bytes[offset]
                if first == 0 {  // padding in both forms
                    offset += 1
                    continue
                }
                let id: UInt8
                let length: Int
                if twoByte {
                    guard offset + 1 < end else { break }
                    id = first
                    length = Int(bytes[offset + 1])
                    offset += 2
                } else {
                    id = first >> 4
                    if id == 15 { break }
                    length = Int(first & 0x0f) + 1
                    offset += 1
                }
                guard offset + length <= end else { break }
                defer { offset += length }
                return Element(id: id, range: offset..<offset + length)
            }
            offset = end
            return nil
        }
    }

    public func makeIterator() -> Iterator {
        if profile == Self.oneByteProfile {
            return Iterator(bytes: bytes, offset: range.lowerBound, end: range.upperBound, twoByte: false)
        }
        if profile & 0xfff0 == Self.twoByteProfile {
            return Iterator(bytes: bytes, offset: range.lowerBound, end: range.upperBound, twoByte: true)
        }
        return Iterator(bytes: bytes, offset: range.upperBound, end: range.upperBound, twoByte: false)
    }
}
