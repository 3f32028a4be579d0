import EventLoop
import Net
import RTCBase

/// One TCP connection of a stream host, wrapped in TLS when it is a client's to a secure
/// URL: plaintext in and out whatever the scheme.
final class StreamConnection {
    /// The connection is up (TLS may still be shaking hands; writes wait for it).
    var onConnected: () -> Void = {}
    /// Plaintext from the other end.
    var onData: ([UInt8]) -> Void = { _ in }
    /// The connection could not be made, TLS failed, or it broke: why, in words. It ends
    /// the connection's story: nothing is reported after it.
    var onFailure: (String) -> Void = { _ in }
    /// The other end closed the connection (after any data it sent).
    var onEOF: () -> Void = {}
    private var ended = false

    private let connection: TCPConnection
    private let tls: TLSClientConnection?

    /// Connects to `address`; `tls` wraps the stream for `serverName`.
    convenience init(loop: EventLoop, to address: SocketAddress, tls: (context: TLSClientContext, serverName: String)?) throws {
        let tls = try tls.map { try TLSClientConnection(serverName: $0.serverName, context: $0.context) }
        self.init(try TCPConnection.connect(loop: loop, to: address), tls: tls)
        connection.onConnect = { [weak self] error in
            guard let self else { return }
            if let error { self.fail("cannot connect to \(address): \(error)") } else { self.onConnected() }
        }
    }

    /// A connection a listener accepted (plain TCP).
    convenience init(accepted connection: TCPConnection) { self.init(connection, tls: nil) }

    private init(_ connection: TCPConnection, tls: TLSClientConnection?) {
        self.connection = connection
        self.tls = tls
        connection.onRead = { [weak self] bytes in
            guard let self else { return }
            if let tls = self.tls {
                tls.handle(bytes)
                self.drainTLS()
            } else {
                self.onData(bytes)
            }
        }
        connection.onClose = { [weak self] error in
            guard let self, !self.ended else { return }
            if let error { return self.fail("connection lost: \(error)") }
            self.tls?.handleEOF()
            self.drainTLS()
            guard !self.ended else { return }
            self.ended = true
            self.onEOF()
        }
    }

    var remoteAddress: SocketAddress { connection.remoteAddress }
    /// Written but not yet taken by the kernel: a slow reader's backlog.
    var bufferedBytes: Int { connection.bufferedBytes }
    var bufferedWrites: Int { connection.bufferedWrites }

    func write(_ bytes: [UInt8]) {
        guard let tls else { return connection.write(bytes) }
        tls.send(bytes)
        sendTLSRecords()
    }

    /// Closes at once, dropping what is not written.
    func close() { connection.close() }

    /// Ends the stream politely: TLS close_notify, then the connection once all is written.
    func closeAfterWriting() {
        tls?.close()
        sendTLSRecords()
        connection.closeAfterWriting()
    }

    /// Decrypted bytes go to `onData`; a TLS failure to `onFailure`.
    private func drainTLS() {
        guard let tls else { return }
        while let event = tls.pollEvent() {
            switch event {
            case .data(let bytes): onData(bytes)
            case .failed(let error): return fail("TLS: \(error)")
            case .connected, .closed: break
            }
        }
        sendTLSRecords()
    }

    private func fail(_ reason: String) {
        guard !ended else { return }
        ended = true
        onFailure(reason)
    }

    private func sendTLSRecords() {
        while let bytes = tls?.pollTransmit() { connection.write(bytes) }
    }
}
