import RTCBase

/// Packetizes AV1 temporal units (AV1 RTP payload format v1.0, section 4-5).
///
/// Input is what an encoder writes: the low-overhead bitstream format (AV1 5.2, every OBU
/// with obu_size). Temporal delimiters, tile lists and padding are left out (section 5),
/// every other OBU goes as an element without obu_size, and elements are packed in order:
/// as many as fit in one packet, an element that does not fit split across packets (Y on
/// the packet it leaves open, Z on the one that continues it), never inside its OBU header.
/// Packets of up to three elements use W so the last one goes without a length. N marks
/// the first packet of a keyframe that carries a sequence header (a new coded video
/// sequence), and the marker the last packet of the temporal unit. A frame that is not a
/// low-overhead bitstream gives no payloads.
public struct Av1Packetizer: RtpPacketizer, Sendable {
    public init() {}

    /// The smallest payload that takes an aggregation header, a length and the start of
    /// an OBU with its extension header.
    public static let minimumPayloadSize = 8

    /// One packet being filled: its elements, and whether it continues or leaves open a fragment.
    private struct Packet {
        var elements: [ArraySlice<UInt8>] = []
        var size = 1
        var continuesFragment = false
        var endsWithFragment = false
    }

    public mutating func packetize(_ frame: [UInt8], isKeyframe: Bool, maxPayloadSize: Int) -> [RtpPayload] {
        precondition(maxPayloadSize >= Self.minimumPayloadSize, "maxPayloadSize too small for an AV1 payload")
        guard let obus = try? Av1Obu.split(frame) else { return [] }
        let sent = obus.filter { ![Av1Obu.temporalDelimiter, Av1Obu.tileList, Av1Obu.padding].contains($0.type) }
        let newSequence = isKeyframe && sent.contains { $0.type == Av1Obu.sequenceHeader }
        var payloads: [RtpPayload] = []
        var packet = Packet()
        func flush() {
            guard !packet.elements.isEmpty else { return }
            payloads.append(RtpPayload(bytes: Self.serialize(packet, startsSequence: newSequence && payloads.isEmpty), marker: false))
            packet = Packet()
        }
        for obu in sent {
            let element = obu.element[...]
            var offset = element.startIndex
            while offset < element.endIndex {
                let room = maxPayloadSize - packet.size
                var withLength = room - 1
                while withLength > 0, withLength + Leb128.size(of: withLength) > room { withLength -= 1 }
                // With at most three elements W is used, and the last one needs no length.
                let fit = packet.elements.count < 3 ? room : withLength
                let remaining = element.endIndex - offset
                // A first fragment holds the whole OBU header and a byte more.
                let least = offset == element.startIndex ? min(remaining, obu.headerBytes.count + 1) : 1
                if fit < least {
                    flush()
                    continue
                }
                let count = min(remaining, fit)
                if packet.elements.isEmpty, offset > element.startIndex { packet.continuesFragment = true }
                packet.elements.append(element[offset..<offset + count])
                offset += count
                if offset < element.endIndex || count > withLength {
                    // Cut off, or in only without a length: nothing more goes in this packet.
                    packet.endsWithFragment = offset < element.endIndex
                    flush()
                } else {
                    packet.size += Leb128.size(of: count) + count
                }
            }
        }
        flush()
        if !payloads.isEmpty { payloads[payloads.count - 1].marker = true }
        return payloads
    }

    /// The aggregation header, then each element after its length (the last one without
    /// when W is used).
    private static func serialize(_ packet: Packet, startsSequence: Bool) -> [UInt8] {
        let count = packet.elements.count <= 3 ? packet.elements.count : 0
        let header = Av1AggregationHeader(
            continuesFragment: packet.continuesFragment, endsWithFragment: packet.endsWithFragment,
            elementCount: count, startsSequence: startsSequence)
        var writer = ByteWriter(capacity: packet.size)
        writer.writeU8(header.byte)
        for (index, element) in packet.elements.enumerated() {
            if count == 0 || index < count - 1 { writer.write(Leb128.encode(element.count)) }
            writer.write(element)
        }
        return writer.bytes
    }
}
