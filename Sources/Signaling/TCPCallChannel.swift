import RTCBase

/// A peer-to-peer call over one TCP connection with no server between the peers (the LAN
/// signaling of apps that call each other directly, `target.kind: "tcp-p2p"`): one JSON
/// object per line, each a `P2PSignal` (offer, answer, candidate, bye).
///
/// The caller's host listens; the first connection it accepts is the callee, and the
/// caller offers on it (later ones are turned away). The callee connects, retrying while
/// nobody listens yet (the caller may be starting in another process), and answers.
public struct TCPCallChannel: CallChannel {
    public enum Side: Sendable, Equatable {
        /// The host listens; this side offers.
        case listening
        /// This side connects there, and answers.
        case connecting(StreamDestination)
    }

    /// The longest line kept while waiting for its end (an SDP is a few KB).
    public static let maxLineBytes = 1 << 20
    /// How long a refused connect waits before the next try, and how many tries there are.
    public static let retryInterval = Duration.milliseconds(100)
    public static let maxConnectAttempts = 100

    public let side: Side
    /// Lines that were not a `P2PSignal`, counted and dropped.
    public private(set) var unreadableLines = 0
    private var partner: StreamID?
    private var attempts = 0
    private var retryAt: Instant?
    private var line: [UInt8] = []
    private var waiting: [P2PSignal] = []
    private var outputs = FIFO<StreamOutput>()
    private var events = FIFO<CallChannelEvent>()
    private var finished = false

    /// A connecting side asks for its connection at once.
    public init(side: Side) {
        self.side = side
        if case .connecting(let destination) = side { connect(destination) }
    }

    public mutating func send(_ signal: P2PSignal, now: Instant) {
        guard !finished else { return }
        guard let partner else { return waiting.append(signal) }
        outputs.append(.write(partner, Array((signal.json.serialized + "\n").utf8)))
    }

    public mutating func leave(now: Instant) {
        guard !finished else { return }
        send(.bye, now: now)
        if let partner { outputs.append(.close(partner)) }
        finish(nil)
    }

    public mutating func handle(_ input: StreamInput, now: Instant) {
        guard !finished else {
            if case .accepted(let id, _) = input { outputs.append(.abort(id)) }
            return
        }
        switch input {
        case .accepted(let id, _):
            guard partner == nil else { return outputs.append(.abort(id)) }
            opened(id, now: now)
            events.append(.partnerArrived)
        case .connected(let id):
            opened(id, now: now)
        case .data(let id, let bytes) where id == partner:
            receive(bytes, now: now)
        case .closed(let id) where id == partner:
            events.append(.partnerLeft)
            finish("the other side closed the connection")
        case .failed(let id, let reason) where id == partner:
            finish(reason)
        case .failed(_, let reason) where partner == nil:
            // A connect that did not get through: try again shortly, a bounded number of times.
            guard case .connecting = side, attempts < Self.maxConnectAttempts else {
                return finish("\(reason) (after \(attempts) attempts)")
            }
            retryAt = now + Self.retryInterval
        case .data, .closed, .failed, .backlog, .refusedAtDescriptorLimit:
            return
        }
    }

    public mutating func handleTimeout(now: Instant) {
        guard let retryAt, retryAt <= now, case .connecting(let destination) = side else { return }
        self.retryAt = nil
        connect(destination)
    }

    public mutating func pollTransmit() -> StreamOutput? { outputs.popFirst() }
    public mutating func pollEvent() -> CallChannelEvent? { events.popFirst() }
    public func pollTimeout() -> Instant? { finished ? nil : retryAt }

    private mutating func connect(_ destination: StreamDestination) {
        attempts += 1
        outputs.append(.connect(attempts, destination))
    }

    private mutating func opened(_ id: StreamID, now: Instant) {
        partner = id
        events.append(.connected)
        events.append(.joined)
        let early = waiting
        waiting = []
        for signal in early { send(signal, now: now) }
    }

    /// Splits the stream into lines (`\n`, an optional `\r` before it) and reads each.
    private mutating func receive(_ bytes: [UInt8], now: Instant) {
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                line.append(byte)
                continue
            }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            read(String(decoding: line, as: UTF8.self))
            line.removeAll(keepingCapacity: true)
        }
        if line.count > Self.maxLineBytes {
            if let partner { outputs.append(.abort(partner)) }
            finish("the other side sent a line of over \(Self.maxLineBytes) bytes")
        }
    }

    private mutating func read(_ text: String) {
        guard !text.isEmpty else { return }
        guard let json = try? JSONValue(parsing: text), let signal = P2PSignal(json) else {
            unreadableLines += 1
            return
        }
        events.append(signal == .bye ? .partnerLeft : .signal(signal))
    }

    private mutating func finish(_ reason: String?) {
        guard !finished else { return }
        finished = true
        retryAt = nil
        if let reason { events.append(.closed(reason: reason)) }
    }
}
