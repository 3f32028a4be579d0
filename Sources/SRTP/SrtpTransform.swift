import COpenSSL
import RTCBase

/// The cipher and authentication of one layer (SRTP or SRTCP) in one direction, with
/// its OpenSSL contexts prepared once.
///
/// Packet layouts (RFC 3711 3.1 and 3.4, RFC 7714 8.1 and 9.1), where `trailer` is the
/// SRTCP E flag and index word:
///
///     AES-CM RTP:   header | encrypted payload | tag           tag over all before it + ROC
///     AES-CM RTCP:  header | encrypted payload | trailer | tag tag over all before it
///     GCM RTP:      header | encrypted payload | tag           AAD = header
///     GCM RTCP:     header | encrypted payload | tag | trailer AAD = header + trailer
final class SrtpTransform {
    private enum Cipher {
        case counterMode(AesCounterMode, HmacSha1)
        case gcm(AesGcm)
    }

    private let cipher: Cipher
    private let salt: [UInt8]
    let tagLength: Int

    init(profile: SrtpProfile, masterKey: [UInt8], masterSalt: [UInt8], layer: SrtpSessionKeys.Layer) {
        let keys = SrtpSessionKeys(profile: profile, masterKey: masterKey, masterSalt: masterSalt, layer: layer)
        salt = keys.salt
        tagLength = layer == .rtp ? profile.rtpTagLength : profile.rtcpTagLength
        cipher = profile.isAead
            ? .gcm(AesGcm(key: keys.encryptionKey))
            : .counterMode(AesCounterMode(key: keys.encryptionKey), HmacSha1(key: keys.authenticationKey))
    }

    /// The bytes added to a protected packet.
    func overhead(trailer: Bool) -> Int { tagLength + (trailer ? 4 : 0) }

    /// Protects `packet`, whose first `headerLength` bytes stay in the clear.
    ///
    /// - Parameters:
    ///   - index: the 48-bit SRTP index, or the 31-bit SRTCP index.
    ///   - roc: the rollover counter authenticated after an AES-CM SRTP packet.
    ///   - trailer: the SRTCP E flag and index word; nil for SRTP.
    func seal(_ packet: [UInt8], headerLength: Int, ssrc: UInt32, index: UInt64, roc: UInt32?, trailer: UInt32?)
        -> [UInt8]
    {
        let payloadCount = packet.count - headerLength
        // The packet grown by room for the tag (and trailer), a new array encrypted in place
        // below. Not `init(unsafeUninitializedCapacity:)`, whose allocation goes through
        // the standard library's unspecialized generic path (see `open`).
        var output = packet
        output.append(contentsOf: repeatElement(0, count: overhead(trailer: trailer != nil)))
        output.withUnsafeMutableBufferPointer { output in
            guard let out = output.baseAddress else { return }
            withIV(ssrc: ssrc, index: index) { iv in
                switch cipher {
                case .counterMode(let aes, let hmac):
                    aes.apply(iv: iv, input: out + headerLength, output: out + headerLength, count: payloadCount)
                    var end = packet.count
                    if let trailer {
                        store(trailer, at: out + end)
                        end += 4
                    }
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: HmacSha1.outputLength) { mac in
                        hmac.authenticate(UnsafeRawBufferPointer(start: out, count: end), suffix: roc, into: mac.baseAddress!)
                        (out + end).update(from: mac.baseAddress!, count: tagLength)
                    }
                case .gcm(let gcm):
                    gcm.seal(
                        iv: iv, aad: UnsafeRawBufferPointer(start: out, count: headerLength), aadSuffix: trailer,
                        input: out + headerLength, output: out + headerLength, count: payloadCount,
                        tag: out + packet.count)
                    if let trailer { store(trailer, at: out + packet.count + tagLength) }
                }
            }
        }
        return output
    }

    /// Authenticates and decrypts `packet` (laid out as `seal` writes it, read in place)
    /// and returns the header and plaintext payload.
    ///
    /// - Parameter encrypted: false for an SRTCP packet sent with E = 0 (AES-CM only).
    func open(
        _ packet: UnsafeRawBufferPointer, headerLength: Int, ssrc: UInt32, index: UInt64, roc: UInt32?, trailer: UInt32?,
        encrypted: Bool = true
    ) throws(ParseError) -> [UInt8] {
        let plainCount = packet.count - overhead(trailer: trailer != nil)
        let payloadCount = plainCount - headerLength
        guard payloadCount >= 0, let raw = packet.baseAddress else { throw .truncated("SRTP packet shorter than header and tag") }
        let source = raw.assumingMemoryBound(to: UInt8.self)
        var authentic = false
        // The header and the still encrypted payload, decrypted in place below. A copy of a
        // buffer is specialized for bytes; `init(unsafeUninitializedCapacity:)` allocates
        // through the standard library's unspecialized generic path, which looks the array
        // type's metadata up every time (about 330 of the 700 instructions it cost per
        // received packet under callgrind).
        var plain = Array(UnsafeBufferPointer(start: source, count: plainCount))
        plain.withUnsafeMutableBufferPointer { output in
            guard let out = output.baseAddress else { return }
            withIV(ssrc: ssrc, index: index) { iv in
                switch cipher {
                case .counterMode(let aes, let hmac):
                    let tagOffset = packet.count - tagLength
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: HmacSha1.outputLength) { mac in
                        hmac.authenticate(
                            UnsafeRawBufferPointer(start: source, count: tagOffset), suffix: roc, into: mac.baseAddress!)
                        authentic = CRYPTO_memcmp(mac.baseAddress!, source + tagOffset, tagLength) == 0
                    }
                    if authentic, encrypted {
                        aes.apply(iv: iv, input: out + headerLength, output: out + headerLength, count: payloadCount)
                    }
                case .gcm(let gcm):
                    authentic = gcm.open(
                        iv: iv, aad: UnsafeRawBufferPointer(start: source, count: headerLength), aadSuffix: trailer,
                        input: out + headerLength, output: out + headerLength, count: payloadCount,
                        tag: source + plainCount)
                }
            }
        }
        guard authentic else { throw .authenticationFailed }
        return plain
    }

    /// Builds the 16-byte counter block (AES-CM, RFC 3711 4.1.1) or the 12-byte nonce
    /// (GCM, RFC 7714 8.1 and 9.1) on the stack: the session salt XOR the SSRC at bytes
    /// 4-7 (AES-CM) or 2-5 (GCM) XOR the index at bytes 8-13 (AES-CM) or 6-11 (GCM).
    private func withIV(ssrc: UInt32, index: UInt64, _ body: (UnsafePointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            let iv = buffer.baseAddress!
            iv.initialize(repeating: 0, count: 16)
            salt.withUnsafeBufferPointer { iv.update(from: $0.baseAddress!, count: salt.count) }
            let ssrcStart = salt.count == 12 ? 2 : 4
            for byte in 0..<4 { iv[ssrcStart + byte] ^= UInt8(truncatingIfNeeded: ssrc >> (24 - 8 * byte)) }
            let indexStart = salt.count == 12 ? 6 : 8
            for byte in 0..<6 { iv[indexStart + byte] ^= UInt8(truncatingIfNeeded: index >> (40 - 8 * byte)) }
            body(UnsafePointer(iv))
        }
    }

    private func store(_ word: UInt32, at pointer: UnsafeMutablePointer<UInt8>) {
        for byte in 0..<4 { (pointer + byte).initialize(to: UInt8(truncatingIfNeeded: word >> (24 - 8 * byte))) }
    }
}
