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

/// The SRTP master keys one DTLS-SRTP handshake exports (RFC 5764 4.2), already split by
/// role: `local` protects what this endpoint sends, `remote` unprotects what it receives.
public struct DtlsSrtpKeys: Hashable, Sendable {
    public var localMasterKey: [UInt8]
    public var localMasterSalt: [UInt8]
    public var remoteMasterKey: [UInt8]
    public var remoteMasterSalt: [UInt8]

    /// Splits "EXTRACTOR-dtls_srtp" keying material laid out as client key, server key,
    /// client salt, server salt.
    init(material: [UInt8], profile: DtlsSrtpProfile, isClient: Bool) {
        let key = profile.keyLength
        let salt = profile.saltLength
        let clientKey = Array(material[0..<key])
        let serverKey = Array(material[key..<2 * key])
        let clientSalt = Array(material[2 * key..<2 * key + salt])
        let serverSalt = Array(material[2 * key + salt..<2 * key + 2 * salt])
        localMasterKey = isClient ? clientKey : serverKey
        localMasterSalt = isClient ? clientSalt : serverSalt
        remoteMasterKey = isClient ? serverKey : clientKey
        remoteMasterSalt = isClient ? serverSalt : clientSalt
    }
}
