import COpenSSL

/// SHA-1 (FIPS 180-4) through OpenSSL's EVP interface; only for the WebSocket accept
/// value (RFC 6455 section 4.2.2), where SHA-1 is what the protocol fixes.
enum SHA1 {
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha1(), nil)
            }
        }
        precondition(ok == 1 && length == 20, "OpenSSL SHA-1 failed")
        return out
    }
}
