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
