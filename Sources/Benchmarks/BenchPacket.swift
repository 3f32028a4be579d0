import RTCBase
import RTP

/// Plain RTP packets for the packet benchmarks.
enum BenchPacket {
    /// A `size`-byte RTP packet: the header (V=2, PT=96, `extensions` if any) and a payload
    /// of filler bytes making up the rest.
    static func rtp(
        size: Int, sequence: UInt16, timestamp: UInt32 = 90_000, ssrc: UInt32 = 0x1234_5678,
        extensions: [RtpHeader.Extension] = []
    ) -> [UInt8] {
        let header = RtpHeader(payloadType: 96, sequenceNumber: sequence, timestamp: timestamp, ssrc: ssrc,
                               extensions: extensions)
        var writer = ByteWriter(capacity: size)
        header.write(payload: [UInt8](), to: &writer)
        let payload = (0..<(size - writer.count)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        writer.reset()
        header.write(payload: payload, to: &writer)
        return writer.take()
    }

    /// What a browser's video packets carry (RFC 8285 one-byte form): abs-send-time
    /// (ID 2, 3 bytes) and transport-wide sequence number (ID 3, 2 bytes).
    static let browserExtensions = [
        RtpHeader.Extension(id: 2, value: [0x12, 0x34, 0x56]),
        RtpHeader.Extension(id: 3, value: [0x00, 0x01]),
    ]

    /// Writes `sequence` into bytes 2-3 of an RTP packet (RFC 3550 5.1).
    static func setSequence(_ sequence: UInt16, in packet: inout [UInt8]) {
        packet[2] = UInt8(sequence >> 8)
        packet[3] = UInt8(sequence & 0xff)
    }

    /// Writes `timestamp` into bytes 4-7 of an RTP packet (RFC 3550 5.1).
    static func setTimestamp(_ timestamp: UInt32, in packet: inout [UInt8]) {
        for index in 0..<4 { packet[4 + index] = UInt8(truncatingIfNeeded: timestamp >> (24 - 8 * index)) }
    }
}
