import EventLoop
import Net
import RTCBase
import Signaling

/// Drives any `CallSetup` adapter (SRS, WHIP/WHEP, Janus) on the loop: each request it
/// asks for goes out on its own `HTTPClientHost`, results come back to it, its timer is
/// kept, and its events go to `onEvent`. At `.closed` or `.failed`, requests still
/// running (a Janus long poll) are dropped.
public final class CallSetupHost<Setup: CallSetup> {
    public let loop: EventLoop
    /// The adapter, for reading what it learned (session ids, Location).
    public private(set) var setup: Setup
    public var onEvent: (CallSetupEvent) -> Void = { _ in }
    private let tls: TLSClientContext?
    private let timer: DeadlineTimer
    private var running: [Int: HTTPClientHost] = [:]
    private var finished = false

    /// `tls` is needed for `https` endpoints.
    public init(loop: EventLoop, setup: Setup, tls: TLSClientContext? = nil) {
        self.loop = loop
        self.setup = setup
        self.tls = tls
        timer = DeadlineTimer(loop: loop)
    }

    public func start() { setup.start(now: loop.now()); drive() }
    public func answer(_ sdp: String) { setup.answer(sdp, now: loop.now()); drive() }
    public func trickle(_ candidate: TrickleCandidate?) { setup.trickle(candidate, now: loop.now()); drive() }
    public func hangUp() { setup.hangUp(now: loop.now()); drive() }

    private func drive() {
        while let event = setup.pollEvent() {
            switch event {
            case .closed, .failed:
                finished = true
                timer.cancel()
                for host in running.values { host.cancel() }
                running = [:]
            default: break
            }
            onEvent(event)
        }
        // After the end, only requests that release server state (a Janus destroy
        // after a failure) still go out.
        while let request = setup.pollRequest() { send(request) }
        guard !finished else { return }
        timer.arm(at: setup.pollTimeout()) { [weak self] in
            guard let self else { return }
            self.setup.handleTimeout(now: self.loop.now())
            self.drive()
        }
    }

    private func send(_ request: CallSetupRequest) {
        let id = request.id
        let complete: (HTTPClientEvent) -> Void = { [weak self] result in
            guard let self else { return }
            self.running[id] = nil
            self.setup.handle(result, for: id, now: self.loop.now())
            self.drive()
        }
        do {
            let address = try TargetResolver.resolve(request.endpoint.description).address
            var secure: (context: TLSClientContext, serverName: String)?
            if request.endpoint.scheme.isSecure {
                guard let tls else { throw TargetError("\(request.endpoint) needs TLS, and no TLS context was given") }
                secure = (tls, request.endpoint.host)
            }
            running[id] = try HTTPClientHost(loop: loop, address: address, request: request.request, timeout: request.timeout,
                                             tls: secure, completion: complete)
        } catch {
            // Reported as the request's failure, on the next turn of the loop.
            let failure = HTTPClientHost.failure(of: request.request, reason: "\(error)", now: loop.now())
            _ = loop.schedule(after: .zero) { complete(failure) }
        }
    }
}
