import RTCBase
import RTP

/// Plain RTP packets for the packet benchmarks.
enum BenchPacket {
    /// A `size`-byte RTP packet: a 12-byte header (V=2, PT=96, no extension) and a payload
    /// of filler bytes.
    static func rtp(size: Int, sequence: UInt16, timestamp: UInt32 = 90_000, ssrc: UInt32 = 0x1234_5678) -> [UInt8] {
        var writer = ByteWriter(capacity: size)
        let payload = (0..<(size - RtpPacket.fixedHeaderSize)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        RtpHeader(payloadType: 96, sequenceNumber: sequence, timestamp: timestamp, ssrc: ssrc)
            .write(payload: payload, to: &writer)
        return writer.take()
    }

    /// Writes `sequence` into bytes 2-3 of an RTP packet (RFC 3550 5.1).
    static func setSequence(_ sequence: UInt16, in packet: inout [UInt8]) {
        packet[2] = UInt8(sequence >> 8)
        packet[3] = UInt8(sequence & 0xff)
    }
}
