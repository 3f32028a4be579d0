/// Drops forged records that would break OpenSSL before it sees them.
///
/// OpenSSL 3.0 stops working for good (every later read, close_notify included, fails
/// with SSL_ERROR_SYSCALL) after one protected record (epoch 1 or later) shorter than
/// its AEAD overhead, which anyone on the path can send. rtcswarm restricts DTLS to
/// AES-GCM suites, whose protected records are never shorter than the 8-byte explicit
/// nonce plus the 16-byte tag (RFC 5288 3), and removes shorter ones here.
enum DtlsRecordFilter {
    /// ECDHE with AES-GCM, for ECDSA and RSA peer certificates (Chromium, Firefox,
    /// aiortc, SRS and Janus all offer AES-128-GCM).
    static let cipherSuites =
        "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
        + "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384"

    /// The DTLS record header: type, version, epoch, sequence number, length
    /// (RFC 6347 4.1).
    static let headerLength = 13
    /// The smallest AES-GCM protected record body.
    static let minimumProtectedLength = 24

    /// `datagram` without its protected records that are too short to be genuine, and
    /// how many were removed. The common case (nothing removed) returns the input as is.
    /// Bytes after a truncated header or an overlong record are left for OpenSSL, which
    /// drops them.
    static func removingShortProtectedRecords(_ datagram: [UInt8]) -> (records: [UInt8], removed: Int) {
        var kept: [Range<Int>] = []
        var removed = 0
        var offset = 0
        while offset + headerLength <= datagram.count {
            let epoch = Int(datagram[offset + 3]) << 8 | Int(datagram[offset + 4])
            let length = Int(datagram[offset + 11]) << 8 | Int(datagram[offset + 12])
            let end = min(offset + headerLength + length, datagram.count)
            if epoch != 0, length > 0, length < minimumProtectedLength {
                removed += 1
            } else {
                kept.append(offset..<end)
            }
            offset = offset + headerLength + length
        }
        guard removed > 0 else { return (datagram, 0) }
        if offset < datagram.count { kept.append(offset..<datagram.count) }
        return (kept.flatMap { datagram[$0] }, removed)
    }
}
