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
    private var stream: ClientStream?
    private var closing = false

    /// `tls` is needed for `wss` endpoints. The connection opens at `start`.
    public init(loop: EventLoop, setup: JanusWebSocketCallSetup, tls: TLSClientContext? = nil) {
        self.loop = loop
        self.setup = setup
        self.tls = tls
        timer = DeadlineTimer(loop: loop)
    }

    public func start() {
        guard stream == nil else { return }
        let now = loop.now()
        do {
            let endpoint = setup.server
            let address = try TargetResolver.resolve(endpoint.description).address
            var secure: (context: TLSClientContext, serverName: String)?
            if endpoint.scheme.isSecure {
                guard let tls else { throw TargetError("\(endpoint) needs TLS, and no TLS context was given") }
                secure = (tls, endpoint.host)
            }
            let stream = try ClientStream(loop: loop, to: address, tls: secure)
            self.stream = stream
            stream.onFailure = { [weak self] reason in
                guard let self else { return }
                self.setup.connectionFailed(reason, now: self.loop.now())
                self.drive()
            }
            stream.onData = { [weak self] bytes in
                guard let self else { return }
                self.setup.handle(bytes, now: self.loop.now())
                self.drive()
            }
            stream.onEOF = { [weak self] in
                guard let self else { return }
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
        while let bytes = setup.pollTransmit() { stream?.write(bytes) }
        while let event = setup.pollEvent() { onEvent(event) }
        guard !setup.isClosed else {
            guard !closing else { return }
            closing = true
            timer.cancel()
            stream?.closeAfterWriting()
            return
        }
        timer.arm(at: setup.pollTimeout()) { [weak self] in
            guard let self else { return }
            self.setup.handleTimeout(now: self.loop.now())
            self.drive()
        }
    }
}
