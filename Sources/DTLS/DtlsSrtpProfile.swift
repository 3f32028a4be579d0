/// The SRTP protection profiles DTLS-SRTP negotiates (RFC 5764 4.1.2, RFC 7714 14.2).
///
/// `name` is the registry name, which `SRTP`'s `SrtpProfile(name:)` takes, so this
/// module needs no dependency on `SRTP`.
public enum DtlsSrtpProfile: String, Hashable, Sendable, CaseIterable {
    case aeadAes128Gcm = "SRTP_AEAD_AES_128_GCM"
    case aes128CmSha1_80 = "SRTP_AES128_CM_SHA1_80"

    /// The registry name.
    public var name: String { rawValue }

    /// Master key length in bytes.
    public var keyLength: Int { 16 }

    /// Master salt length in bytes (RFC 7714 12 for GCM, RFC 3711 8.2 for AES-CM).
    public var saltLength: Int { self == .aeadAes128Gcm ? 12 : 14 }

    /// The use_srtp offer, most preferred first.
    static let offered = allCases.map(\.name).joined(separator: ":")
}
