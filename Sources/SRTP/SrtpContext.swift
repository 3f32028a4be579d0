import RTCBase

/// SRTP and SRTCP protection for one direction of a session (RFC 3711, RFC 7714).
///
/// Create one context per direction from that direction's master key and salt (DTLS-SRTP
/// exports both): the local one protects what this peer sends, the remote one
/// unprotects what it receives. Cipher contexts and HMAC keys are prepared once; each
/// packet allocates only its output array.
///
/// Per SSRC, the context keeps the rollover counter and highest index (RFC 3711 3.3.1),
/// a 128-packet replay window on receive (3.3.2) and the SRTCP index on send (3.4).
/// Bad input throws `ParseError` (`.truncated`, `.integrity`, `.replayed`) for the
/// caller to count and drop.
public final class SrtpContext {
    public let profile: SrtpProfile
    private let rtp: SrtpTransform
    let rtcp: SrtpTransform
    /// Highest SRTP index protected, per SSRC.
    private var sent = SsrcTable<UInt64>()
    /// Replay window (and so highest index) of SRTP packets received, per SSRC.
    private var received = SsrcTable<ReplayWindow>()
    /// Last SRTCP index used, per SSRC.
    var rtcpSent = SsrcTable<UInt32>()
    /// Replay window of SRTCP indices received, per SSRC.
    var rtcpReceived = SsrcTable<ReplayWindow>()

    /// - Parameters:
    ///   - masterKey: `profile.masterKeyLength` bytes.
    ///   - masterSalt: `profile.masterSaltLength` bytes.
    public init(profile: SrtpProfile, masterKey: [UInt8], masterSalt: [UInt8]) {
        self.profile = profile
        rtp = SrtpTransform(profile: profile, masterKey: masterKey, masterSalt: masterSalt, layer: .rtp)
        rtcp = SrtpTransform(profile: profile, masterKey: masterKey, masterSalt: masterSalt, layer: .rtcp)
    }

    /// Encrypts and authenticates an RTP packet (RFC 3711 3.3, RFC 7714 8).
    ///
    /// The same sequence number may be protected again (a plain retransmission); the
    /// rollover counter follows the highest sequence number sent.
    /// - Throws: `.truncated` when the packet is shorter than its RTP header says.
    public func protectRtp(_ packet: [UInt8]) throws(ParseError) -> [UInt8] {
        let header = try RtpHeaderFields(packet)
        let highest = sent[header.ssrc]
        let index = RtpIndex.estimate(sequence: header.sequence, highest: highest)
        if highest.map({ index > $0 }) ?? true { sent[header.ssrc] = index }
        return rtp.seal(
            packet, headerLength: header.length, ssrc: header.ssrc, index: index,
            roc: profile.isAead ? nil : RtpIndex.rolloverCounter(index), trailer: nil)
    }

    /// Checks and decrypts an SRTP packet (RFC 3711 3.3, RFC 7714 8) and returns the RTP
    /// packet.
    /// - Throws: `.truncated` (too short), `.replayed` (index already seen or behind the
    ///   window), `.integrity` (tag mismatch). The stream state only moves on success.
    public func unprotectRtp(_ packet: [UInt8]) throws(ParseError) -> [UInt8] {
        let header = try RtpHeaderFields(packet)
        return try packet.withParsableBytes { (bytes) throws(ParseError) in
            try unprotectRtp(bytes, headerLength: header.length, sequence: header.sequence, ssrc: header.ssrc)
        }
    }

    /// `unprotectRtp(_:)` for a packet read in place (a socket's receive buffer) whose RTP
    /// header the caller has parsed already: its length (what is in the clear), sequence
    /// number and SSRC (RFC 3550 5.1), so the receive path parses the header once.
    public func unprotectRtp(_ packet: UnsafeRawBufferPointer, headerLength: Int, sequence: UInt16, ssrc: UInt32)
        throws(ParseError) -> [UInt8]
    {
        guard packet.count >= headerLength + rtp.tagLength else { throw .truncated("SRTP authentication tag") }
        var window = received[ssrc] ?? ReplayWindow()
        let index = RtpIndex.estimate(sequence: sequence, highest: window.highest)
        guard window.check(index) else { throw .replayed(index) }
        let plain = try rtp.open(
            packet, headerLength: headerLength, ssrc: ssrc, index: index,
            roc: profile.isAead ? nil : RtpIndex.rolloverCounter(index), trailer: nil)
        window.accept(index)
        received[ssrc] = window
        return plain
    }
}
