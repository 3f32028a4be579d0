import RTCBase

/// A protocol machine that lives on exactly one connection it opens itself: a WebSocket
/// client (Janus, the room client, the P2P call socket) or one HTTP exchange. It sees bytes
/// and the connection's end, never connection ids; `SingleConnection` makes it the
/// `StreamMachine` a stream host drives.
public protocol ConnectionMachine {
    associatedtype Event
    /// Where the connection goes (TLS when the URL's scheme is secure).
    var destination: StreamDestination { get }
    /// The machine is done with the connection: the host closes it once the last bytes
    /// from `pollTransmit` are written.
    var isClosed: Bool { get }
    mutating func handle(_ bytes: [UInt8], now: Instant)
    /// The other end closed the connection.
    mutating func handleEOF(now: Instant)
    /// The connection could not be made, TLS failed, or it broke: why, in words.
    mutating func connectionFailed(_ reason: String, now: Instant)
    mutating func handleTimeout(now: Instant)
    mutating func pollTransmit() -> [UInt8]?
    mutating func pollEvent() -> Event?
    func pollTimeout() -> Instant?
}

extension Endpoint {
    /// The connection this URL needs: its host and port, TLS for `https` and `wss`.
    public var streamDestination: StreamDestination {
        StreamDestination(host: host, port: port, secure: scheme.isSecure)
    }
}

/// A `ConnectionMachine` as a `StreamMachine`: asks for its one connection (id 0) first,
/// writes its bytes once the connection is up, and closes it when the machine is done.
public struct SingleConnection<Machine: ConnectionMachine>: StreamMachine {
    /// The machine, for commands (`host.perform { $0.machine.send(...) }`) and reading.
    public var machine: Machine
    private var requested = false
    private var connected = false
    private var closeSent = false

    public init(_ machine: Machine) { self.machine = machine }

    public mutating func handle(_ input: StreamInput, now: Instant) {
        switch input {
        case .connected: connected = true
        case .data(_, let bytes): machine.handle(bytes, now: now)
        case .closed: machine.handleEOF(now: now)
        case .failed(_, let reason): machine.connectionFailed(reason, now: now)
        case .accepted, .backlog, .refusedAtDescriptorLimit: break
        }
    }

    public mutating func handleTimeout(now: Instant) { machine.handleTimeout(now: now) }

    public mutating func pollTransmit() -> StreamOutput? {
        if !requested {
            requested = true
            return .connect(0, machine.destination)
        }
        // Before the connect completes, bytes stay in the machine; so does a close.
        guard connected, !closeSent else { return nil }
        if let bytes = machine.pollTransmit() { return .write(0, bytes) }
        guard machine.isClosed else { return nil }
        closeSent = true
        return .close(0)
    }

    public mutating func pollEvent() -> Machine.Event? { machine.pollEvent() }
    public func pollTimeout() -> Instant? { machine.pollTimeout() }
}
