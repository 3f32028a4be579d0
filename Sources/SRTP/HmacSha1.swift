import COpenSSL

/// HMAC-SHA1 (RFC 2104) with a fixed key: the SRTP message authentication of RFC 3711
/// 4.2.1.
///
/// The key's inner and outer SHA-1 states are computed once (RFC 2104 2, "precomputed"
/// pads); each message copies them, so a short packet costs two SHA-1 compressions
/// instead of the four a keyed re-initialisation per message would.
final class HmacSha1 {
    /// The full SHA-1 output; SRTP truncates it to the profile's tag length.
    static let outputLength = 20

    private let key: UnsafeMutablePointer<rs_hmac_sha1_key>

    init(key bytes: [UInt8]) {
        key = .allocate(capacity: 1)
        rs_hmac_sha1_init(key, bytes, bytes.count)
    }

    deinit {
        OPENSSL_cleanse(key, MemoryLayout<rs_hmac_sha1_key>.size)
        key.deallocate()
    }

    /// Writes HMAC(key, message || suffix) to `output` (20 bytes).
    ///
    /// - Parameter suffix: up to four more bytes (the SRTP rollover counter), big-endian.
    func authenticate(
        _ message: UnsafeRawBufferPointer, suffix: UInt32?, into output: UnsafeMutablePointer<UInt8>
    ) {
        let base = message.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var bigEndian = (suffix ?? 0).bigEndian
        withUnsafeBytes(of: &bigEndian) { suffixBytes in
            rs_hmac_sha1(key, base, message.count, suffixBytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                         suffix == nil ? 0 : 4, output)
        }
    }
}
