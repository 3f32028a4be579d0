/// The one shape of every protocol machine in rtcswarm (docs/architecture.md, "The one
/// rule"): it never touches a socket, a clock or a thread. A host feeds it input with the
/// time and its timeouts, then polls until nothing is left: what to send, what happened,
/// when to wake it next. The test kit's virtual network and the runtime's two hosts (one
/// for datagrams, one for streams) drive every machine through this.
public protocol SansIOMachine {
    /// What arrives from the network: a datagram, or a stream's bytes and state.
    associatedtype Input
    /// What the machine wants done on the network: a datagram to send, or a stream write.
    associatedtype Output
    /// What the machine tells its owner (state changes, frames, answers, failures).
    associatedtype Event

    mutating func handle(_ input: Input, now: Instant)
    mutating func handleTimeout(now: Instant)
    mutating func pollTransmit() -> Output?
    mutating func pollEvent() -> Event?
    /// When `handleTimeout(now:)` is due next; nil for never.
    func pollTimeout() -> Instant?
}

/// One datagram as a socket received it.
public struct ReceivedDatagram: Sendable, Equatable {
    public var payload: [UInt8]
    /// Who sent it.
    public var source: SocketAddress
    /// The local address it arrived on (a machine with several host candidates has several).
    public var destination: SocketAddress

    public init(payload: [UInt8], source: SocketAddress, destination: SocketAddress) {
        self.payload = payload
        self.source = source
        self.destination = destination
    }
}

/// A machine that speaks UDP: a WebRTC peer, a STUN or TURN server in tests.
public protocol DatagramMachine: SansIOMachine where Input == ReceivedDatagram, Output == Transmit {
    /// `handle(_:now:)` for a payload the host only lends (its socket's receive buffer),
    /// valid during the call: a machine that reads it in place saves a copy per datagram.
    mutating func handle(borrowed payload: UnsafeRawBufferPointer, from source: SocketAddress, to destination: SocketAddress,
                         now: Instant)
    /// True while what it does next is timed by how fast an answer comes back (a peer
    /// setting up, or with data channels): its host then has the loop read its datagrams
    /// the moment they arrive instead of in batches.
    var needsPromptWakeups: Bool { get }
}

extension DatagramMachine {
    /// Copies the payload for machines that keep their input.
    public mutating func handle(borrowed payload: UnsafeRawBufferPointer, from source: SocketAddress,
                                to destination: SocketAddress, now: Instant) {
        handle(ReceivedDatagram(payload: Array(payload), source: source, destination: destination), now: now)
    }

    /// A machine that times nothing by its answers (a STUN or TURN server in tests).
    public var needsPromptWakeups: Bool { false }
}

extension SansIOMachine where Event == Never {
    /// A machine with nothing to tell its owner.
    public mutating func pollEvent() -> Never? { nil }
}
