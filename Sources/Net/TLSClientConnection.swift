import COpenSSL
import RTCBase

/// What a `TLSClientConnection` reports.
public enum TLSEvent: Hashable, Sendable {
    /// The handshake finished and the server passed verification.
    case connected
    /// Decrypted application data.
    case data([UInt8])
    /// The server sent close_notify, or the connection ended.
    case closed
    case failed(TLSError)
}

/// A TLS client over OpenSSL memory BIOs (RFC 8446 / RFC 5246), sans-IO: ciphertext
/// from the socket goes into `handle`, ciphertext for the socket comes out of
/// `pollTransmit`, plaintext goes in through `send` and out as `.data` events.
///
/// Sends SNI for host names (RFC 6066 section 3); with verification on (the default) the
/// chain must lead to a trusted root and the certificate must name the host or IP
/// (RFC 6125). Use it from one thread at a time.
public final class TLSClientConnection: @unchecked Sendable {
    public let serverName: String
    private let context: TLSClientContext
    private let ssl: OpaquePointer
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer
    private var pendingPlaintext: [UInt8] = []
    private var events = FIFO<TLSEvent>()
    private var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    public private(set) var isConnected = false
    public private(set) var isClosed = false

    /// Creates the connection and queues the ClientHello.
    public init(serverName: String, context: TLSClientContext) throws(TLSError) {
        self.serverName = serverName
        self.context = context
        guard let ssl = SSL_new(context.context), let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            throw TLSError.drainQueue("SSL_new failed")
        }
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        _ = rs_bio_set_mem_eof_return(incoming, -1)
        SSL_set_bio(ssl, incoming, outgoing)
        SSL_set_connect_state(ssl)
        let isIP = SocketAddress(host: serverName, port: 0) != nil
        if !isIP { _ = rs_ssl_set_host_name(ssl, serverName) }
        if context.configuration.verifyCertificates {
            let named = isIP ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName) : SSL_set1_host(ssl, serverName)
            guard named == 1 else { throw TLSError.drainQueue("cannot set the name to verify") }
        }
        advance()
    }

    deinit { SSL_free(ssl) }

    /// Ciphertext received from the server.
    public func handle(_ bytes: [UInt8]) {
        guard !isClosed, !bytes.isEmpty else { return }
        _ = bytes.withUnsafeBytes { BIO_write(incoming, $0.baseAddress, Int32($0.count)) }
        advance()
    }

    /// The TCP connection ended.
    public func handleEOF() {
        guard !isClosed else { return }
        finish(isConnected ? .closed : .failed(TLSError("server closed the connection during the handshake")))
    }

    /// Plaintext to send; held until the handshake is done.
    public func send(_ plaintext: [UInt8]) {
        guard !isClosed else { return }
        pendingPlaintext.append(contentsOf: plaintext)
        if isConnected { flushPlaintext() }
    }

    /// Sends close_notify (RFC 8446 section 6.1).
    public func close() {
        guard !isClosed else { return }
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        isClosed = true
    }

    /// Ciphertext to write to the socket.
    public func pollTransmit() -> [UInt8]? {
        let pending = Int(BIO_ctrl_pending(outgoing))
        guard pending > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: pending)
        let read = out.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32(pending)) }
        return read > 0 ? Array(out.prefix(Int(read))) : nil
    }

    /// The next event: connected, decrypted data, closed or failed.
    public func pollEvent() -> TLSEvent? {
        events.popFirst()
    }

    private func advance() {
        ERR_clear_error()
        if !isConnected {
            let result = SSL_do_handshake(ssl)
            guard result == 1 else {
                let error = SSL_get_error(ssl, result)
                if error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE { failHandshake() }
                return
            }
            isConnected = true
            events.append(.connected)
            flushPlaintext()
        }
        readApplicationData()
    }

    private func failHandshake() {
        let verify = SSL_get_verify_result(ssl)
        if verify != X509_V_OK {
            let reason = String(cString: X509_verify_cert_error_string(verify))
            ERR_clear_error()
            finish(.failed(TLSError("certificate of \(serverName) rejected: \(reason)")))
        } else {
            finish(.failed(TLSError.drainQueue("handshake with \(serverName) failed")))
        }
    }

    private func readApplicationData() {
        while !isClosed {
            let count = readBuffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                events.append(.data(Array(readBuffer.prefix(Int(count)))))
                continue
            }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                return
            case SSL_ERROR_ZERO_RETURN:
                _ = SSL_shutdown(ssl)
                finish(.closed)
            default:
                finish(.failed(TLSError.drainQueue("reading from \(serverName) failed")))
            }
            return
        }
    }

    private func flushPlaintext() {
        guard !pendingPlaintext.isEmpty else { return }
        ERR_clear_error()
        let written = pendingPlaintext.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        guard written == Int32(pendingPlaintext.count) else {
            return finish(.failed(TLSError.drainQueue("writing to \(serverName) failed")))
        }
        pendingPlaintext = []
    }

    private func finish(_ event: TLSEvent) {
        isClosed = true
        events.append(event)
    }
}
