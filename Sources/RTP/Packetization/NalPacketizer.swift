import RTCBase

/// Packetizes access units of a NAL-unit video codec (H.264 packetization-mode 1,
/// RFC 6184 5.6-5.8; H.265 without DONL, RFC 7798 4.4).
///
/// Input is an Annex-B byte stream (NAL units after 3- or 4-byte start codes). NAL
/// units that fit together go in one aggregation packet (typically the parameter sets and
/// a small keyframe), a NAL unit that fits alone goes as a single NAL unit packet, and
/// larger ones are split into fragmentation units. The marker is set on the access unit's
/// last packet.
public struct NalPacketizer<Format: NalPayloadFormat>: RtpPacketizer, Sendable {
    public init() {}

    public mutating func packetize(_ frame: [UInt8], isKeyframe: Bool, maxPayloadSize: Int) -> [RtpPayload] {
        precondition(maxPayloadSize > Format.fragmentHeaderSize, "maxPayloadSize too small for a fragmentation unit")
        let units = AnnexB.nalUnits(in: frame).filter { $0.count >= Format.nalHeaderSize }
        var payloads: [RtpPayload] = []
        var index = 0
        while index < units.count {
            let unit = units[index]
            var aggregated = index
            var aggregateSize = Format.aggregationHeaderSize + 2 + unit.count
            while aggregated + 1 < units.count, aggregateSize + 2 + units[aggregated + 1].count <= maxPayloadSize {
                aggregated += 1
                aggregateSize += 2 + units[aggregated].count
            }
            if aggregated > index {
                payloads.append(RtpPayload(bytes: aggregate(frame, units[index...aggregated], size: aggregateSize), marker: false))
                index = aggregated + 1
            } else if unit.count <= maxPayloadSize {
                payloads.append(RtpPayload(bytes: Array(frame[unit]), marker: false))
                index += 1
            } else {
                appendFragments(frame, unit, maxPayloadSize: maxPayloadSize, to: &payloads)
                index += 1
            }
        }
        if !payloads.isEmpty { payloads[payloads.count - 1].marker = true }
        return payloads
    }

    /// One aggregation packet: its header, then size + NAL unit each.
    private func aggregate(_ frame: [UInt8], _ units: ArraySlice<Range<Int>>, size: Int) -> [UInt8] {
        var writer = ByteWriter(capacity: size)
        writer.write(Format.aggregationHeader(frame, units))
        for unit in units {
            writer.writeU16(UInt16(unit.count))
            writer.write(frame[unit])
        }
        return writer.bytes
    }

    /// Fragmentation units: the format's header, then the data after the NAL unit header.
    private func appendFragments(
        _ frame: [UInt8], _ unit: Range<Int>, maxPayloadSize: Int, to payloads: inout [RtpPayload]
    ) {
        let first = unit.lowerBound + Format.nalHeaderSize
        var offset = first
        let chunk = maxPayloadSize - Format.fragmentHeaderSize
        while offset < unit.upperBound {
            let end = min(offset + chunk, unit.upperBound)
            var bytes = Format.fragmentHeader(frame, nalHeader: unit.lowerBound, start: offset == first, end: end == unit.upperBound)
            bytes.reserveCapacity(bytes.count + end - offset)
            bytes.append(contentsOf: frame[offset..<end])
            payloads.append(RtpPayload(bytes: bytes, marker: false))
            offset = end
        }
    }
}
