import EventLoop
import Net
import RTCBase
import Signaling

/// Drives a `JanusWebSocketCallSetup` on the loop: one TCP connection (TLS for `wss`)
/// carrying its bytes, its timer kept, its events to `onEvent`. The connection closes
/// once the adapter says the socket is over and its last bytes are written.
public final class JanusWebSocketHost: CallSetupDriver {
    public let loop: EventLoop
    /// The adapter, for reading what it learned (session and handle ids, counters).
    public private(set) var setup: JanusWebSocketCallSetup
    public var onEvent: (CallSetupEvent) -> Void = { _ in }
    private let tls: TLSClientContext?
    private let timer: DeadlineTimer
    private var connection: TCPConnection?
    private var secure: TLSClientConnection?
    private var closing = false

    /// `tls` is needed for `wss` endpoints. The connection opens at `start`.
    public init(loop: EventLoop, setup: JanusWebSocketCallSetup, tls: TLSClientContext? = nil) {
        self.loop = loop
        self.setup = setup
        self.tls = tls
        timer = DeadlineTimer(loop: loop)
    }

    public func start() {
        guard connection == nil else { return }
        let now = loop.now()
        do {
            let endpoint = setup.server
            let address = try TargetResolver.resolve(endpoint.description).address
            if endpoint.scheme.isSecure {
                guard let tls else { throw TargetError("\(endpoint) needs TLS, and no TLS context was given") }
                secure = try TLSClientConnection(serverName: endpoint.host, context: tls)
            }
            let connection = try TCPConnection.connect(loop: loop, to: address)
            self.connection = connection
            connection.onConnect = { [weak self] error in
                guard let self, let error else { return }
                self.setup.connectionFailed("cannot connect to \(address): \(error)", now: self.loop.now())
                self.drive()
            }
            connection.onRead = { [weak self] bytes in
                guard let self else { return }
                if let secure = self.secure { secure.handle(bytes) } else { self.setup.handle(bytes, now: self.loop.now()) }
                self.drive()
            }
            connection.onClose = { [weak self] _ in
                guard let self else { return }
                self.secure?.handleEOF()
                self.drainTLS()
                self.setup.handleEOF(now: self.loop.now())
                self.drive()
            }
            setup.start(now: now)
        } catch {
            setup.connectionFailed("\(error)", now: now)
        }
        drive()
    }

    public func answer(_ sdp: String) { setup.answer(sdp, now: loop.now()); drive() }
    public func trickle(_ candidate: TrickleCandidate?) { setup.trickle(candidate, now: loop.now()); drive() }
    public func hangUp() { setup.hangUp(now: loop.now()); drive() }

    private func drive() {
        drainTLS()
        while let bytes = setup.pollTransmit() {
            if let secure { secure.send(bytes) } else { connection?.write(bytes) }
        }
        if let secure { while let bytes = secure.pollTransmit() { connection?.write(bytes) } }
        while let event = setup.pollEvent() { onEvent(event) }
        guard !setup.isClosed else {
            guard !closing else { return }
            closing = true
            timer.cancel()
            secure?.close()
            if let secure { while let bytes = secure.pollTransmit() { connection?.write(bytes) } }
            connection?.closeAfterWriting()
            return
        }
        timer.arm(at: setup.pollTimeout()) { [weak self] in
            guard let self else { return }
            self.setup.handleTimeout(now: self.loop.now())
            self.drive()
        }
    }

    /// Decrypted bytes go to the adapter; a TLS failure ends the connection.
    private func drainTLS() {
        guard let secure else { return }
        while let event = secure.pollEvent() {
            switch event {
            case .data(let bytes): setup.handle(bytes, now: loop.now())
            case .failed(let error): return setup.connectionFailed("TLS: \(error)", now: loop.now())
            case .connected, .closed: break
            }
        }
    }
}
