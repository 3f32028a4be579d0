import RTCBase

/// One AV1 RTP payload split into its aggregation header and OBU elements (AV1 RTP
/// payload format v1.0, 4.3-4.4): each element after a LEB128 length, except the last
/// when W is 1 to 3. Element ranges index the packet's own array; nothing is copied.
struct Av1Payload {
    var header: Av1AggregationHeader
    var elements: [Range<Int>]

    /// Throws on a missing header, an empty element, a length past the end, or a W that
    /// does not match the elements found.
    init(_ payload: ByteReader) throws(ParseError) {
        var reader = payload
        header = try Av1AggregationHeader(try reader.readU8("AV1 aggregation header"))
        elements = []
        while !reader.isAtEnd {
            let last = header.elementCount != 0 && elements.count == header.elementCount - 1
            let length = last ? reader.remaining : try reader.readLeb128("OBU element length")
            guard length > 0 else { throw .invalid("empty OBU element") }
            let start = reader.offset
            try reader.skip(length, "OBU element")
            elements.append(start..<reader.offset)
        }
        guard !elements.isEmpty else { throw .truncated("AV1 payload without an OBU element") }
        guard header.elementCount == 0 || elements.count == header.elementCount else {
            throw .invalid("W says \(header.elementCount) OBU elements, the payload has \(elements.count)")
        }
    }

    /// The element at `index` continues an OBU begun in an earlier packet (Z).
    func continues(_ index: Int) -> Bool { index == 0 && header.continuesFragment }

    /// The element at `index` is an OBU cut off at the end of the packet (Y).
    func isOpen(_ index: Int) -> Bool { index == elements.count - 1 && header.endsWithFragment }
}
