import Net
import RTCBase

/// A `CallSetup` adapter (SRS, WHIP/WHEP, Janus over HTTP) as one stream machine: each
/// request it asks for becomes an `HTTPExchange` on a connection of its own (named by the
/// request's id), and each exchange's one result goes back to it.
///
/// At the adapter's `.closed` or `.failed`, exchanges still running (a Janus long poll)
/// are dropped and no timer is kept; requests made after that (a Janus `destroy` that
/// releases the session) still go out, unanswered by design.
public struct HTTPSignaling<Setup: CallSetup>: CallSignaling {
    /// The adapter, for reading what it learned (session ids, Location).
    public private(set) var setup: Setup
    private var exchanges: [StreamID: HTTPExchange] = [:]
    private var connected: Set<StreamID> = []
    private var outputs = FIFO<StreamOutput>()
    private var events = FIFO<CallSetupEvent>()
    private var finished = false

    public init(_ setup: Setup) { self.setup = setup }

    public mutating func start(now: Instant) { setup.start(now: now); pump(now: now) }
    public mutating func answer(_ sdp: String, now: Instant) { setup.answer(sdp, now: now); pump(now: now) }
    public mutating func trickle(_ candidate: TrickleCandidate?, now: Instant) { setup.trickle(candidate, now: now); pump(now: now) }
    public mutating func hangUp(now: Instant) { setup.hangUp(now: now); pump(now: now) }
    public mutating func restartIce(offer: String, now: Instant) { setup.restartIce(offer: offer, now: now); pump(now: now) }

    public mutating func handle(_ input: StreamInput, now: Instant) {
        switch input {
        case .connected(let id): connected.insert(id)
        case .data(let id, let bytes): exchanges[id]?.handle(bytes, now: now)
        case .closed(let id): exchanges[id]?.handleEOF(now: now)
        case .failed(let id, let reason): exchanges[id]?.connectionFailed(reason, now: now)
        case .accepted, .backlog, .refusedAtDescriptorLimit: return
        }
        pump(now: now)
    }

    public mutating func handleTimeout(now: Instant) {
        for id in exchanges.keys where exchanges[id]?.pollTimeout().map({ $0 <= now }) ?? false {
            exchanges[id]?.handleTimeout(now: now)
        }
        if !finished, let due = setup.pollTimeout(), due <= now { setup.handleTimeout(now: now) }
        pump(now: now)
    }

    public mutating func pollTransmit() -> StreamOutput? { outputs.popFirst() }
    public mutating func pollEvent() -> CallSetupEvent? { events.popFirst() }

    public func pollTimeout() -> Instant? {
        ([finished ? nil : setup.pollTimeout()] + exchanges.values.map { $0.pollTimeout() }).compactMap { $0 }.min()
    }

    /// Hands finished exchanges' results to the adapter, takes its events and starts the
    /// requests it asks for, until nothing moves.
    private mutating func pump(now: Instant) {
        var moved = true
        while moved {
            moved = false
            for id in exchanges.keys.sorted() {
                guard var exchange = exchanges[id] else { continue }
                if connected.contains(id) {
                    while let bytes = exchange.pollTransmit() { outputs.append(.write(id, bytes)) }
                }
                let result = exchange.pollEvent()
                exchanges[id] = exchange
                guard let result else { continue }
                drop(id)
                setup.handle(result, for: id, now: now)
                moved = true
            }
            while let event = setup.pollEvent() {
                if case .closed = event { finishRunning() }
                if case .failed = event { finishRunning() }
                events.append(event)
                moved = true
            }
            while let request = setup.pollRequest() {
                let exchange = HTTPExchange(to: request.endpoint.streamDestination, request: request.request,
                                            timeout: request.timeout, now: now)
                exchanges[request.id] = exchange
                outputs.append(.connect(request.id, exchange.destination))
                moved = true
            }
        }
    }

    private mutating func drop(_ id: StreamID) {
        exchanges[id] = nil
        connected.remove(id)
        outputs.append(.abort(id))
    }

    private mutating func finishRunning() {
        finished = true
        for id in exchanges.keys.sorted() { drop(id) }
    }
}
