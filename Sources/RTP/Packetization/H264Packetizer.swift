import RTCBase

/// Packetizes H.264 access units in packetization-mode 1 (RFC 6184 5.6-5.8).
///
/// Input is an Annex-B byte stream (NAL units after 3- or 4-byte start codes). NAL
/// units that fit together go in one STAP-A (5.7.1: typically SPS + PPS + a small IDR),
/// a NAL unit that fits alone goes as a single NAL unit packet (5.6), and larger ones
/// are split into FU-A fragments (5.8). The marker is set on the access unit's last
/// packet.
public struct H264Packetizer: RtpPacketizer, Sendable {
    static let stapA: UInt8 = 24
    static let fuA: UInt8 = 28

    public init() {}

    public mutating func packetize(_ frame: [UInt8], isKeyframe: Bool, maxPayloadSize: Int) -> [RtpPayload] {
        precondition(maxPayloadSize > 2, "maxPayloadSize too small for FU-A")
        let units = AnnexB.nalUnits(in: frame)
        var payloads: [RtpPayload] = []
        var index = 0
        while index < units.count {
            let unit = units[index]
            var aggregated = index
            var stapSize = 1 + 2 + unit.count
            while aggregated + 1 < units.count, stapSize + 2 + units[aggregated + 1].count <= maxPayloadSize {
                aggregated += 1
                stapSize += 2 + units[aggregated].count
            }
            if aggregated > index {
                payloads.append(RtpPayload(bytes: stapA(frame, units[index...aggregated]), marker: false))
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

    /// One STAP-A: a header with the highest NRI and any F bit, then size + NAL unit each.
    private func stapA(_ frame: [UInt8], _ units: ArraySlice<Range<Int>>) -> [UInt8] {
        var forbidden: UInt8 = 0
        var nri: UInt8 = 0
        var writer = ByteWriter(capacity: units.reduce(1) { $0 + 2 + $1.count })
        for unit in units {
            forbidden |= frame[unit.lowerBound] & 0x80
            nri = max(nri, frame[unit.lowerBound] & 0x60)
        }
        writer.writeU8(forbidden | nri | Self.stapA)
        for unit in units {
            writer.writeU16(UInt16(unit.count))
            writer.write(frame[unit])
        }
        return writer.bytes
    }

    /// FU-A fragments: FU indicator (F, NRI, 28), FU header (S, E, R=0, type), data.
    private func appendFragments(
        _ frame: [UInt8], _ unit: Range<Int>, maxPayloadSize: Int, to payloads: inout [RtpPayload]
    ) {
        let header = frame[unit.lowerBound]
        let indicator = header & 0xE0 | Self.fuA
        var offset = unit.lowerBound + 1
        let chunk = maxPayloadSize - 2
        while offset < unit.upperBound {
            let end = min(offset + chunk, unit.upperBound)
            var fuHeader = header & 0x1F
            if offset == unit.lowerBound + 1 { fuHeader |= 0x80 }
            if end == unit.upperBound { fuHeader |= 0x40 }
            var bytes: [UInt8] = [indicator, fuHeader]
            bytes.reserveCapacity(2 + end - offset)
            bytes.append(contentsOf: frame[offset..<end])
            payloads.append(RtpPayload(bytes: bytes, marker: false))
            offset = end
        }
    }
}
