import COpenSSL

/// AES-128 in counter mode (RFC 3711 4.1.1) on OpenSSL's libcrypto.
///
/// The key schedule is prepared once; each packet only sets a new counter block, which
/// allocates nothing.
final class AesCounterMode {
    private let context: OpaquePointer

    /// - Parameter key: 16 bytes.
    init(key: [UInt8]) {
        precondition(key.count == 16, "AES-128 needs a 16-byte key")
        guard let context = EVP_CIPHER_CTX_new() else { fatalError("OpenSSL: out of memory") }
        self.context = context
        guard EVP_EncryptInit_ex(context, EVP_aes_128_ctr(), nil, key, nil) == 1 else {
            fatalError("OpenSSL: AES-128-CTR unavailable")
        }
    }

    deinit { EVP_CIPHER_CTX_free(context) }

    /// XORs the key stream that starts at counter block `iv` (16 bytes) over `count` bytes
    /// of `input` into `output`; `input` and `output` may be the same buffer.
    func apply(
        iv: UnsafePointer<UInt8>, input: UnsafePointer<UInt8>?, output: UnsafeMutablePointer<UInt8>?,
        count: Int
    ) {
        guard count > 0, let input, let output else { return }
        var written: Int32 = 0
        guard EVP_EncryptInit_ex(context, nil, nil, nil, iv) == 1,
            EVP_EncryptUpdate(context, output, &written, input, Int32(count)) == 1
        else { fatalError("OpenSSL: AES-128-CTR failed") }
    }

    /// `count` bytes of key stream starting at counter block `iv`: the AES-CM PRF of
    /// RFC 3711 4.3.3.
    func keyStream(iv: [UInt8], count: Int) -> [UInt8] {
        let zeros = [UInt8](repeating: 0, count: count)
        var stream = zeros
        iv.withUnsafeBufferPointer { iv in
            stream.withUnsafeMutableBufferPointer { output in
                apply(iv: iv.baseAddress!, input: zeros, output: output.baseAddress, count: count)
            }
        }
        return stream
    }
}
