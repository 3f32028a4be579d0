import RTCBase

/// Builders of plaintext RTP and RTCP packets for the SRTP tests.
enum SrtpTestPackets {
    /// An RTP packet: 12-byte header, optional CSRCs and a one-byte-header extension, and
    /// `payloadLength` random bytes.
    static func rtp(
        sequence: UInt16, ssrc: UInt32, payloadLength: Int, csrcCount: Int = 0, extensionWords: Int = 0,
        using generator: inout SeededGenerator
    ) -> [UInt8] {
        var writer = ByteWriter(capacity: 12 + payloadLength + 64)
        // V=2 P=0 X=(extension) CC=csrcCount
        writer.writeU8(0x80 | (extensionWords > 0 ? 0x10 : 0) | UInt8(csrcCount))
        writer.writeU8(96)  // M=0 PT=96
        writer.writeU16(sequence)
        writer.writeU32(UInt32(sequence) &* 3000)  // timestamp
        writer.writeU32(ssrc)
        for csrc in 0..<csrcCount { writer.writeU32(0xC5C0_0000 + UInt32(csrc)) }
        if extensionWords > 0 {
            writer.writeU16(0xBEDE)  // one-byte header extensions (RFC 8285)
            writer.writeU16(UInt16(extensionWords))
            for _ in 0..<extensionWords { writer.writeU32(UInt32.random(in: 0...UInt32.max, using: &generator)) }
        }
        for _ in 0..<payloadLength { writer.writeU8(UInt8.random(in: 0...255, using: &generator)) }
        return writer.bytes
    }

    /// An RTCP receiver report (RFC 3550 6.4.2) from `ssrc` with `blocks` report blocks.
    static func rtcp(ssrc: UInt32, blocks: Int, using generator: inout SeededGenerator) -> [UInt8] {
        var writer = ByteWriter(capacity: 8 + 24 * blocks)
        writer.writeU8(0x80 | UInt8(blocks))  // V=2 P=0 RC=blocks
        writer.writeU8(201)  // PT=RR
        writer.writeU16(UInt16(1 + 6 * blocks))  // length in words minus one
        writer.writeU32(ssrc)
        for _ in 0..<(6 * blocks) { writer.writeU32(UInt32.random(in: 0...UInt32.max, using: &generator)) }
        return writer.bytes
    }

    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16) ?? 0 }
    }
}
