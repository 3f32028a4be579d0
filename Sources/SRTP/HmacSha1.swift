import COpenSSL

/// HMAC-SHA1 (RFC 2104) with a fixed key, through OpenSSL's EVP_MAC: the SRTP message
/// authentication of RFC 3711 4.2.1.
///
/// The key is installed once; each message re-initialises the context from the stored
/// key pads.
final class HmacSha1 {
    /// The full SHA-1 output; SRTP truncates it to the profile's tag length.
    static let outputLength = 20

    private let context: OpaquePointer

    init(key: [UInt8]) {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { fatalError("OpenSSL: HMAC unavailable") }
        defer { EVP_MAC_free(mac) }
        guard let context = EVP_MAC_CTX_new(mac) else { fatalError("OpenSSL: out of memory") }
        self.context = context
        // OSSL_PARAM keeps both pointers until EVP_MAC_init reads them, so both C strings
        // must outlive that call: a literal passed straight to the constructor is a
        // temporary freed on return (AddressSanitizer: heap-use-after-free in
        // OSSL_PARAM_locate, found by `scripts/fuzz.sh --ci srtp`).
        let installed = "digest".withCString { name in
            "SHA1".withCString { digest in
                var params = [
                    OSSL_PARAM_construct_utf8_string(name, UnsafeMutablePointer(mutating: digest), 0),
                    OSSL_PARAM_construct_end(),
                ]
                return EVP_MAC_init(context, key, key.count, &params)
            }
        }
        guard installed == 1 else { fatalError("OpenSSL: HMAC-SHA1 key setup failed") }
    }

    deinit { EVP_MAC_CTX_free(context) }

    /// Writes HMAC(key, message || suffix) to `output` (20 bytes).
    ///
    /// - Parameter suffix: up to four more bytes (the SRTP rollover counter), big-endian.
    func authenticate(
        _ message: UnsafeRawBufferPointer, suffix: UInt32?, into output: UnsafeMutablePointer<UInt8>
    ) {
        var length = 0
        var ok = EVP_MAC_init(context, nil, 0, nil) == 1
        if let base = message.baseAddress, message.count > 0 {
            ok = ok && EVP_MAC_update(context, base.assumingMemoryBound(to: UInt8.self), message.count) == 1
        }
        if let suffix {
            var bigEndian = suffix.bigEndian
            ok = ok && withUnsafeBytes(of: &bigEndian) { bytes in
                EVP_MAC_update(context, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 4) == 1
            }
        }
        ok = ok && EVP_MAC_final(context, output, &length, HmacSha1.outputLength) == 1
        guard ok, length == HmacSha1.outputLength else { fatalError("OpenSSL: HMAC-SHA1 failed") }
    }
}
