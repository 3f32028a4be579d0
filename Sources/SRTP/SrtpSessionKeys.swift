/// Session keys for one layer (SRTP or SRTCP) of one direction, derived from the master
/// key and salt with the AES-CM PRF (RFC 3711 4.3.1 and 4.3.3; RFC 7714 11 for GCM).
///
/// The key derivation rate is zero, as in every WebRTC profile: keys are derived once.
struct SrtpSessionKeys: Equatable {
    /// Which packets the keys protect; selects the labels of RFC 3711 4.3.2.
    enum Layer {
        case rtp
        case rtcp

        var firstLabel: UInt8 { self == .rtp ? 0 : 3 }
    }

    /// k_e: the cipher key (16 bytes).
    var encryptionKey: [UInt8]
    /// k_a: the HMAC-SHA1 key (20 bytes); empty for AEAD profiles.
    var authenticationKey: [UInt8]
    /// k_s: the session salt (14 bytes for AES-CM, 12 for GCM).
    var salt: [UInt8]

    init(profile: SrtpProfile, masterKey: [UInt8], masterSalt: [UInt8], layer: Layer) {
        precondition(masterKey.count == profile.masterKeyLength, "wrong master key length for \(profile)")
        precondition(masterSalt.count == profile.masterSaltLength, "wrong master salt length for \(profile)")
        let prf = AesCounterMode(key: masterKey)
        func derive(_ label: UInt8, _ count: Int) -> [UInt8] {
            // x = key_id XOR master_salt, key_id = label || r with r = 0 (kdr = 0). The
            // 96-bit GCM salt sits left-aligned in the 112-bit field, as libsrtp does.
            var iv = masterSalt + [UInt8](repeating: 0, count: 16 - masterSalt.count)
            iv[7] ^= label
            return prf.keyStream(iv: iv, count: count)
        }
        encryptionKey = derive(layer.firstLabel, 16)
        authenticationKey = profile.isAead ? [] : derive(layer.firstLabel + 1, HmacSha1.outputLength)
        salt = derive(layer.firstLabel + 2, profile.masterSaltLength)
    }
}
