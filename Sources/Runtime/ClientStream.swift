import EventLoop
import Net
import RTCBase

/// A client's TCP connection to a server, wrapped in TLS when given a context: plaintext
/// in and out whatever the scheme, for the hosts of sans-IO clients (an HTTP exchange, a
/// Janus WebSocket) to carry their bytes over.
final class ClientStream {
    /// The connection is up (TLS may still be shaking hands; writes wait for it).
    var onConnected: () -> Void = {}
    /// Plaintext from the server.
    var onData: ([UInt8]) -> Void = { _ in }
    /// The connection could not be made, or TLS failed: why, in words.
    var onFailure: (String) -> Void = { _ in }
    /// The server closed the connection (after any data it sent).
    var onEOF: () -> Void = {}

    private let connection: TCPConnection
    private let tls: TLSClientConnection?

    /// Connects to `address`; `tls` wraps the stream for `serverName`.
    init(loop: EventLoop, to address: SocketAddress, tls: (context: TLSClientContext, serverName: String)?) throws {
        self.tls = try tls.map { try TLSClientConnection(serverName: $0.serverName, context: $0.context) }
        connection = try TCPConnection.connect(loop: loop, to: address)
        connection.onConnect = { [weak self] error in
            guard let self else { return }
            if let error { self.onFailure("cannot connect to \(address): \(error)") } else { self.onConnected() }
        }
        connection.onRead = { [weak self] bytes in
            guard let self else { return }
            if let tls = self.tls {
                tls.handle(bytes)
                self.drainTLS()
            } else {
                self.onData(bytes)
            }
        }
        connection.onClose = { [weak self] _ in
            guard let self else { return }
            self.tls?.handleEOF()
            self.drainTLS()
            self.onEOF()
        }
    }

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
            case .failed(let error): return onFailure("TLS: \(error)")
            case .connected, .closed: break
            }
        }
        sendTLSRecords()
    }

    private func sendTLSRecords() {
        while let bytes = tls?.pollTransmit() { connection.write(bytes) }
    }
}
