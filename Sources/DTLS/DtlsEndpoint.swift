import COpenSSL
import RTCBase

/// One DTLS-SRTP association (RFC 5764, RFC 8842) on OpenSSL, sans-IO.
///
/// Datagrams come in through `handle(_:now:)` and leave through `pollTransmit()`, each
/// at most `DtlsEndpoint.mtu` bytes; the outcome comes out of `pollEvent()`. The peer
/// must present a certificate whose fingerprint matches the remote SDP's
/// `a=fingerprint` (RFC 8122 5); self-signed certificates are expected.
///
/// The clock wart: OpenSSL's DTLS retransmission timer reads the real clock
/// (`gettimeofday`) and cannot be given `now`. `pollTimeout()` maps OpenSSL's remaining
/// time onto the caller's clock, and `handleTimeout(now:)` asks OpenSSL to retransmit,
/// which it only does once *real* time has passed its timer. In virtual time the
/// handshake therefore works, but retransmission after loss needs real time. Nothing
/// else in rtcswarm reads a clock because of this: it stays inside this type.
public final class DtlsEndpoint {
    /// The largest datagram the endpoint sends.
    public static let mtu = 1200

    /// Where the association stands.
    public enum State: Hashable, Sendable {
        /// A client before `start(now:)`.
        case idle
        /// Flights in progress; a server is here from the start, waiting for a ClientHello.
        case handshaking
        /// `.connected` was reported; SRTP keys are out.
        case connected
        /// Closed by `close()` or by the peer's close_notify.
        case closed
        /// `.failed` was reported; the endpoint ignores further input.
        case failed
    }

    public let role: DtlsRole
    public private(set) var state: State
    /// How many times a handshake flight was sent again after its timer expired.
    public private(set) var retransmissions = 0
    /// Records dropped before OpenSSL saw them (see `DtlsRecordFilter`).
    public private(set) var droppedRecords = 0

    private(set) var initialTimeoutMicroseconds: UInt32
    /// The first retransmission timer of each flight; it doubles up to 60 s (RFC 6347
    /// 4.2.4.1). Settable until the flight it should apply to is sent.
    public var retransmitTimeout: Duration {
        get { .microseconds(Int64(initialTimeoutMicroseconds)) }
        set { initialTimeoutMicroseconds = Self.microseconds(newValue) }
    }
    private let remoteFingerprint: DtlsFingerprint
    private let ssl: OpaquePointer
    private let readBio: OpaquePointer
    var outgoing: [[UInt8]] = []
    private var events: [DtlsEvent] = []
    private var deadline: Instant?
    private var mismatch: String?
    /// Whether OpenSSL's record buffers are freed: from the end of the handshake until
    /// a record is read or written again, and once the association is closed.
    public private(set) var buffersReleased = false

    /// - Parameters:
    ///   - role: client or server, from the SDP setup attributes.
    ///   - certificate: this process's certificate, normally `.shared`.
    ///   - remoteFingerprint: the remote SDP's `a=fingerprint` value, "sha-256 AB:CD:...".
    ///   - retransmitTimeout: the first retransmission timer; it doubles up to 60 s
    ///     (RFC 6347 4.2.4.1).
    /// - Throws: `ParseError` when `remoteFingerprint` is malformed or uses an unknown hash.
    public init(
        role: DtlsRole, certificate: DtlsCertificate = .shared, remoteFingerprint: String,
        retransmitTimeout: Duration = .seconds(1)
    ) throws(ParseError) {
        self.role = role
        self.remoteFingerprint = try DtlsFingerprint(sdp: remoteFingerprint)
        initialTimeoutMicroseconds = Self.microseconds(retransmitTimeout)
        guard let ssl = SSL_new(certificate.context), let readBio = BIO_new(BIO_s_mem()),
            let writeBio = BIO_new(DatagramBio.method)
        else { fatalError("OpenSSL: out of memory") }
        self.ssl = ssl
        self.readBio = readBio
        state = role == .client ? .idle : .handshaking
        _ = rs_bio_set_mem_eof_return(readBio, -1)
        SSL_set_bio(ssl, readBio, writeBio)
        let me = Unmanaged.passUnretained(self).toOpaque()
        BIO_set_data(writeBio, me)
        SSL_set_ex_data(ssl, 0, me)
        _ = rs_dtls_set_link_mtu(ssl, DtlsEndpoint.mtu)
        DTLS_set_timer_cb(ssl, DtlsEndpoint.timerCallback)
        if role == .client { SSL_set_connect_state(ssl) } else { SSL_set_accept_state(ssl) }
    }

    deinit { SSL_free(ssl) }

    private static func microseconds(_ timeout: Duration) -> UInt32 {
        UInt32(clamping: max(timeout.nanoseconds / 1_000, 1_000))
    }

    /// Starts the handshake: a client sends its ClientHello. A server needs no start; it
    /// answers the first ClientHello `handle` sees.
    public func start(now: Instant) {
        guard state == .idle else { return }
        state = .handshaking
        advance(now: now)
    }

    /// Feeds one received DTLS datagram (RFC 7983: first byte 20-63). Garbage and
    /// records that fail their MAC are dropped by OpenSSL.
    public func handle(_ datagram: [UInt8], now: Instant) {
        guard state == .handshaking || state == .connected, !datagram.isEmpty else { return }
        let (records, dropped) = DtlsRecordFilter.removingShortProtectedRecords(datagram)
        droppedRecords += dropped
        guard !records.isEmpty else { return }
        restoreBuffers()
        ERR_clear_error()
        _ = BIO_write(readBio, records, Int32(clamping: records.count))
        advance(now: now)
        // Whatever OpenSSL left unread (a truncated record) must not prefix the next one.
        _ = BIO_ctrl(readBio, BIO_CTRL_RESET, 0, nil)
    }

    /// Retransmits the current handshake flight if its timer has expired (in real time,
    /// see the type's note).
    public func handleTimeout(now: Instant) {
        guard let deadline, now >= deadline, state == .handshaking || state == .connected else { return }
        restoreBuffers()
        ERR_clear_error()
        let result = rs_dtls_handle_timeout(ssl)
        if result > 0 {
            retransmissions += 1
        } else if result < 0 {
            fail(reason(fallback: "DTLS handshake timed out"))
        }
        updateDeadline(now: now)
    }

    /// The next datagram to send, at most `mtu` bytes.
    public func pollTransmit() -> [UInt8]? { outgoing.isEmpty ? nil : outgoing.removeFirst() }

    /// The next event, once each.
    public func pollEvent() -> DtlsEvent? { events.isEmpty ? nil : events.removeFirst() }

    /// When `handleTimeout(now:)` should be called next: OpenSSL's retransmission timer
    /// placed on the caller's clock; nil when no timer runs.
    public func pollTimeout() -> Instant? { deadline }

    /// Sends `bytes` as one application data record (an SCTP packet, RFC 8261 3: at most
    /// `mtu` minus the record overhead). False unless connected.
    @discardableResult
    public func send(applicationData bytes: [UInt8]) -> Bool {
        guard state == .connected, !bytes.isEmpty else { return false }
        restoreBuffers()
        ERR_clear_error()
        let written = SSL_write(ssl, bytes, Int32(clamping: bytes.count))
        if written <= 0 { check(written) }
        return written == Int32(bytes.count)
    }

    /// Sends close_notify (RFC 5246 7.2.1) if connected, and ends the association. The
    /// remote endpoint reports `.closed`.
    public func close() {
        guard state == .connected || state == .handshaking else { return }
        if state == .connected {
            restoreBuffers()
            ERR_clear_error()
            _ = SSL_shutdown(ssl)
        }
        state = .closed
        deadline = nil
        releaseBuffers()
    }

    // MARK: - Driving OpenSSL

    private func advance(now: Instant) {
        let wasHandshaking = state == .handshaking
        if wasHandshaking {
            let result = SSL_do_handshake(ssl)
            if result == 1 {
                finishHandshake()
            } else {
                check(result)
            }
        }
        if state == .connected {
            drainRecords()
            // The remote's close_notify (drained above) ends the association too.
            if wasHandshaking || state == .closed { releaseBuffers() }
        }
        updateDeadline(now: now)
    }

    /// Exports the SRTP keys once the handshake is done (RFC 5764 4.2).
    private func finishHandshake() {
        guard let selected = SSL_get_selected_srtp_profile(ssl), let name = selected.pointee.name,
            let profile = DtlsSrtpProfile(rawValue: String(cString: name))
        else { return fail("the peer negotiated no supported SRTP profile") }
        guard let peer = SSL_get1_peer_certificate(ssl) else { return fail("the peer sent no certificate") }
        defer { X509_free(peer) }
        guard acceptsPeer(peer) else { return fail(mismatch ?? "fingerprint mismatch") }
        let label = "EXTRACTOR-dtls_srtp"
        var material = [UInt8](repeating: 0, count: 2 * (profile.keyLength + profile.saltLength))
        guard SSL_export_keying_material(ssl, &material, material.count, label, label.utf8.count, nil, 0, 0) == 1 else {
            return fail(reason(fallback: "SRTP keying material export failed"))
        }
        state = .connected
        events.append(.connected(profile: profile, keys: DtlsSrtpKeys(material: material, profile: profile, isClient: role == .client)))
    }

    /// Frees OpenSSL's record buffers once the handshake is done: DTLS never releases its
    /// 16 KB read buffer on its own (`SSL_MODE_RELEASE_BUFFERS` covers TLS's), and a
    /// media-only peer passes no record again before its or the remote's close_notify. It
    /// was 16.7 KB of every player's memory through SRS (heaptrack). And again once the
    /// close_notify is sent or read: a run's peers close together, and the 34 KB each got
    /// back for that one record were the peak of a worker's memory (heaptrack over
    /// `bench-one-way`: 36 KB per call).
    private func releaseBuffers() {
        guard !buffersReleased else { return }
        buffersReleased = SSL_free_buffers(ssl) == 1
    }

    /// Gives OpenSSL its record buffers back before it reads or writes again: its DTLS
    /// write path (an alert, application data, a resent flight) assumes they exist.
    private func restoreBuffers() {
        guard buffersReleased else { return }
        buffersReleased = SSL_alloc_buffers(ssl) != 1
    }

    /// Reads records after the handshake: application data goes out as events (SCTP
    /// packets, RFC 8261); close_notify ends the association.
    private func drainRecords() {
        var scratch = [UInt8](repeating: 0, count: 1_500)
        while true {
            let result = SSL_read(ssl, &scratch, Int32(scratch.count))
            if result > 0 {
                events.append(.applicationData(Array(scratch.prefix(Int(result)))))
                continue
            }
            let error = SSL_get_error(ssl, result)
            if error == SSL_ERROR_ZERO_RETURN {
                state = .closed
                deadline = nil
                events.append(.closed)
            } else {
                check(result)
            }
            return
        }
    }

    /// Fails the association unless `result` only means "waiting for more datagrams".
    private func check(_ result: Int32) {
        let error = SSL_get_error(ssl, result)
        guard error != SSL_ERROR_WANT_READ, error != SSL_ERROR_WANT_WRITE else { return }
        fail(reason(fallback: "DTLS failed (SSL error \(error))"))
    }

    private func updateDeadline(now: Instant) {
        guard state == .handshaking || state == .connected else { return deadline = nil }
        let remaining = rs_dtls_timeout_us(ssl)
        deadline = remaining < 0 ? nil : now + .microseconds(remaining)
    }

    private func fail(_ reason: String) {
        guard state != .failed, state != .closed else { return }
        state = .failed
        deadline = nil
        events.append(.failed(reason: reason))
    }

    /// The fingerprint mismatch if there was one, else OpenSSL's first queued error (an
    /// alert received shows as "sslv3 alert bad certificate" and the like).
    private func reason(fallback: String) -> String {
        if let mismatch { return mismatch }
        let code = ERR_get_error()
        guard code != 0, let text = ERR_reason_error_string(code) else { return fallback }
        return String(cString: text)
    }

    // MARK: - Certificate check

    /// Whether `certificate` (the peer's leaf) has the fingerprint the remote SDP gave;
    /// records the mismatch for the failure reason.
    func acceptsPeer(_ certificate: OpaquePointer) -> Bool {
        let actual = DtlsFingerprint(certificate: certificate, algorithm: remoteFingerprint.algorithm)
        guard actual.digest == remoteFingerprint.digest else {
            mismatch = "fingerprint mismatch: the peer's certificate is \(actual), the SDP says \(remoteFingerprint)"
            return false
        }
        return true
    }

    /// OpenSSL's verify callback: accepts self-signed chains, and judges the leaf only by
    /// the fingerprint of the endpoint that owns the connection.
    static let verifyCallback: SSL_verify_cb = { _, store in
        guard let store, X509_STORE_CTX_get_error_depth(store) == 0 else { return 1 }
        guard let ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()),
            let owner = SSL_get_ex_data(OpaquePointer(ssl), 0),
            let certificate = X509_STORE_CTX_get_current_cert(store)
        else { return 0 }
        return Unmanaged<DtlsEndpoint>.fromOpaque(owner).takeUnretainedValue().acceptsPeer(certificate) ? 1 : 0
    }

    /// The retransmission timer: the configured first timeout, doubled on each expiry up
    /// to 60 s (RFC 6347 4.2.4.1).
    static let timerCallback: DTLS_timer_cb = { ssl, current in
        guard let ssl, let owner = SSL_get_ex_data(ssl, 0) else { return 1_000_000 }
        let initial = Unmanaged<DtlsEndpoint>.fromOpaque(owner).takeUnretainedValue().initialTimeoutMicroseconds
        return current == 0 ? initial : min(current.multipliedReportingOverflow(by: 2).partialValue, 60_000_000)
    }
}
