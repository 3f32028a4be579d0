/// An SRTP protection profile: cipher, authentication and key sizes.
///
/// The names follow the DTLS-SRTP registry (RFC 5764 4.1.2, RFC 7714 14.2), which is
/// also how `DTLS` reports what the handshake negotiated.
public enum SrtpProfile: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// AES-128 counter mode with an 80-bit HMAC-SHA1 tag (RFC 3711 4.1.1, 4.2.1).
    case aesCm128HmacSha1_80
    /// AES-128 counter mode with a 32-bit HMAC-SHA1 tag on SRTP, 80-bit on SRTCP
    /// (RFC 5764 4.1.2).
    case aesCm128HmacSha1_32
    /// AES-128 in Galois/counter mode with a 128-bit tag (RFC 7714).
    case aeadAes128Gcm

    /// The master key length in bytes.
    public var masterKeyLength: Int { 16 }

    /// The master salt length in bytes: 112 bits for AES-CM, 96 bits for GCM (RFC 7714 12).
    public var masterSaltLength: Int { isAead ? 12 : 14 }

    /// The authentication tag appended to SRTP packets.
    public var rtpTagLength: Int {
        switch self {
        case .aesCm128HmacSha1_80: 10
        case .aesCm128HmacSha1_32: 4
        case .aeadAes128Gcm: 16
        }
    }

    /// The authentication tag appended to SRTCP packets (80 bits for both AES-CM profiles).
    public var rtcpTagLength: Int { isAead ? 16 : 10 }

    /// Whether the profile is an AEAD cipher (no separate authentication key).
    public var isAead: Bool { self == .aeadAes128Gcm }

    /// The profile name OpenSSL and the RFC registries use.
    public var name: String {
        switch self {
        case .aesCm128HmacSha1_80: "SRTP_AES128_CM_SHA1_80"
        case .aesCm128HmacSha1_32: "SRTP_AES128_CM_SHA1_32"
        case .aeadAes128Gcm: "SRTP_AEAD_AES_128_GCM"
        }
    }

    /// The profile with the given registry name, if rtcswarm implements it.
    public init?(name: String) {
        guard let profile = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = profile
    }

    public var description: String { name }
}
