import RTCBase

extension SrtpContext {
    /// The E flag of the SRTCP trailer word: the payload is encrypted (RFC 3711 3.4).
    private static let encryptedFlag: UInt32 = 0x8000_0000
    /// SRTCP indices are 31 bits.
    private static let maximumIndex: UInt32 = 0x7fff_ffff

    /// Encrypts and authenticates an RTCP packet (compound or not) into SRTCP
    /// (RFC 3711 3.4, RFC 7714 9). The payload after the first 8 bytes is always
    /// encrypted (E = 1).
    ///
    /// The first SRTCP index of each SSRC is 1, as libsrtp (and so Chromium) sends;
    /// receivers accept any starting index.
    /// - Throws: `.truncated` when the packet is shorter than an RTCP header and SSRC.
    public func protectRtcp(_ packet: [UInt8]) throws(ParseError) -> [UInt8] {
        let ssrc = try Self.rtcpSsrc(packet)
        let index = ((rtcpSent[ssrc] ?? 0) &+ 1) & Self.maximumIndex
        rtcpSent[ssrc] = index
        return rtcp.seal(
            packet, headerLength: 8, ssrc: ssrc, index: UInt64(index), roc: nil, trailer: Self.encryptedFlag | index)
    }

    /// Checks and decrypts an SRTCP packet (RFC 3711 3.4, RFC 7714 9) and returns the
    /// RTCP packet.
    /// - Throws: `.truncated`, `.replayed`, `.integrity`, or `.unsupported` for an
    ///   unencrypted (E = 0) GCM packet.
    public func unprotectRtcp(_ packet: [UInt8]) throws(ParseError) -> [UInt8] {
        let ssrc = try Self.rtcpSsrc(packet)
        guard packet.count >= 8 + rtcp.overhead(trailer: true) else { throw .truncated("SRTCP trailer and tag") }
        let trailerOffset = profile.isAead ? packet.count - 4 : packet.count - 4 - rtcp.tagLength
        let trailer = packet[trailerOffset..<trailerOffset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        let encrypted = trailer & Self.encryptedFlag != 0
        guard encrypted || !profile.isAead else {
            throw ParseError(.unsupported, "SRTCP with E = 0 under AEAD")
        }
        let index = UInt64(trailer & Self.maximumIndex)
        var window = rtcpReceived[ssrc] ?? ReplayWindow()
        guard window.check(index) else { throw .replayed(index) }
        let plain = try packet.withParsableBytes { (bytes) throws(ParseError) in
            try rtcp.open(bytes, headerLength: 8, ssrc: ssrc, index: index, roc: nil, trailer: trailer, encrypted: encrypted)
        }
        window.accept(index)
        rtcpReceived[ssrc] = window
        return plain
    }

    /// The sender SSRC of the first RTCP packet (bytes 4-7, RFC 3550 6.4).
    private static func rtcpSsrc(_ packet: [UInt8]) throws(ParseError) -> UInt32 {
        guard packet.count >= 8 else { throw .truncated("RTCP header and SSRC") }
        return packet[4..<8].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
