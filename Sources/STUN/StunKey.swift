import COpenSSL

/// MESSAGE-INTEGRITY keys (RFC 8489 9) and the HMAC that uses them.
public enum StunKey {
    /// Short-term credential key (RFC 8489 9.1.1): the password itself, as ICE uses it
    /// (RFC 8445 7.2.2). The OpaqueString profile is not applied: ICE passwords are
    /// ASCII (RFC 8839 5.4).
    public static func shortTerm(password: String) -> [UInt8] { Array(password.utf8) }

    /// Long-term credential key (RFC 8489 9.2.2, MD5 algorithm):
    /// MD5(username ":" realm ":" password), as TURN servers compute it.
    /// Inputs are used as given (already OpaqueString-prepared by the caller).
    public static func longTerm(username: String, realm: String, password: String) -> [UInt8] {
        let input = Array("\(username):\(realm):\(password)".utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = input.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_md5(), nil)
        }
        precondition(ok == 1, "OpenSSL MD5 failed")
        return Array(digest.prefix(Int(length)))
    }

    /// HMAC-SHA1 of `data` with `key` (RFC 2104), 20 bytes.
    static func hmacSHA1(key: [UInt8], _ data: ArraySlice<UInt8>) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 20
        key.withUnsafeBytes { keyBytes in
            data.withUnsafeBytes { dataBytes in
                _ = HMAC(EVP_sha1(), keyBytes.baseAddress, Int32(keyBytes.count),
                         dataBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), dataBytes.count, &mac, &length)
            }
        }
        return mac
    }
}
