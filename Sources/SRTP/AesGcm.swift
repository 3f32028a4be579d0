import COpenSSL

/// AES-128-GCM with a 16-byte tag and a 12-byte IV (RFC 7714 5.2), on OpenSSL.
///
/// One cipher context per direction keeps its key schedule; each packet only sets the
/// IV, so sealing and opening allocate nothing.
final class AesGcm {
    static let tagLength = 16

    private let sealer: OpaquePointer
    private let opener: OpaquePointer

    /// - Parameter key: 16 bytes.
    init(key: [UInt8]) {
        precondition(key.count == 16, "AES-128-GCM needs a 16-byte key")
        guard let sealer = EVP_CIPHER_CTX_new(), let opener = EVP_CIPHER_CTX_new() else {
            fatalError("OpenSSL: out of memory")
        }
        self.sealer = sealer
        self.opener = opener
        guard EVP_EncryptInit_ex(sealer, EVP_aes_128_gcm(), nil, key, nil) == 1,
            EVP_DecryptInit_ex(opener, EVP_aes_128_gcm(), nil, key, nil) == 1
        else { fatalError("OpenSSL: AES-128-GCM unavailable") }
    }

    deinit {
        EVP_CIPHER_CTX_free(sealer)
        EVP_CIPHER_CTX_free(opener)
    }

    /// Encrypts `count` bytes from `input` to `output` (may alias), authenticating `aad`
    /// followed by `aadSuffix` (big-endian) too, and writes the tag to `tag`.
    func seal(
        iv: UnsafePointer<UInt8>, aad: UnsafeRawBufferPointer, aadSuffix: UInt32?,
        input: UnsafePointer<UInt8>?, output: UnsafeMutablePointer<UInt8>?, count: Int,
        tag: UnsafeMutablePointer<UInt8>
    ) {
        var written: Int32 = 0
        var ok = EVP_EncryptInit_ex(sealer, nil, nil, nil, iv) == 1
        ok = ok && addAad(sealer, aad, aadSuffix)
        if count > 0, let input, let output {
            ok = ok && EVP_EncryptUpdate(sealer, output, &written, input, Int32(count)) == 1
        }
        var scratch: UInt8 = 0
        ok = ok && EVP_EncryptFinal_ex(sealer, &scratch, &written) == 1
        ok = ok && EVP_CIPHER_CTX_ctrl(sealer, EVP_CTRL_GCM_GET_TAG, Int32(AesGcm.tagLength), tag) == 1
        guard ok else { fatalError("OpenSSL: AES-128-GCM seal failed") }
    }

    /// Decrypts `count` bytes from `input` to `output` and checks `tag` over them, `aad`
    /// and `aadSuffix`. Returns false when the tag does not match; `output` then holds
    /// garbage.
    func open(
        iv: UnsafePointer<UInt8>, aad: UnsafeRawBufferPointer, aadSuffix: UInt32?,
        input: UnsafePointer<UInt8>?, output: UnsafeMutablePointer<UInt8>?, count: Int,
        tag: UnsafePointer<UInt8>
    ) -> Bool {
        var written: Int32 = 0
        var ok = EVP_DecryptInit_ex(opener, nil, nil, nil, iv) == 1
        ok = ok && addAad(opener, aad, aadSuffix)
        if count > 0, let input, let output {
            ok = ok && EVP_DecryptUpdate(opener, output, &written, input, Int32(count)) == 1
        }
        ok = ok && EVP_CIPHER_CTX_ctrl(
            opener, EVP_CTRL_GCM_SET_TAG, Int32(AesGcm.tagLength), UnsafeMutablePointer(mutating: tag)) == 1
        var scratch: UInt8 = 0
        return ok && EVP_DecryptFinal_ex(opener, &scratch, &written) == 1
    }

    private func addAad(_ context: OpaquePointer, _ aad: UnsafeRawBufferPointer, _ suffix: UInt32?) -> Bool {
        var written: Int32 = 0
        if let base = aad.baseAddress, aad.count > 0,
            EVP_CipherUpdate(context, nil, &written, base.assumingMemoryBound(to: UInt8.self), Int32(aad.count)) != 1
        {
            return false
        }
        guard var bigEndian = suffix?.bigEndian else { return true }
        return withUnsafeBytes(of: &bigEndian) { bytes in
            EVP_CipherUpdate(context, nil, &written, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 4) == 1
        }
    }
}
