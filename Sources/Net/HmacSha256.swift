import COpenSSL

/// HMAC-SHA256 (RFC 2104 with SHA-256, FIPS 180-4), through OpenSSL's libcrypto: what
/// signs REST requests such as OWT's `MAuth` authorization header.
public enum HmacSha256 {
    /// The 32-byte MAC of `message` under `key`.
    public static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 32
        let ok = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                     messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count, &mac, &length)
            }
        }
        precondition(ok != nil && length == 32, "OpenSSL HMAC-SHA256 failed")
        return mac
    }
}
