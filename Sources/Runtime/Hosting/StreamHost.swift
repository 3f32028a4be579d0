import EventLoop
import Net
import RTCBase

/// Drives any `StreamMachine` on the loop: the connections it asks for (TLS for secure
/// destinations), the connections a listener accepts for it, its one timer, and its
/// events to `onEvent`. Every signaling adapter, the room client and the room server run
/// on one of these; none has a host of its own.
public final class StreamHost<Machine: StreamMachine> {
    public let loop: EventLoop
    /// The machine, for reading what it learned; change it through `perform`.
    public private(set) var machine: Machine
    public var onEvent: (Machine.Event) -> Void = { _ in }
    private let tls: TLSClientContext?
    private let timer: DeadlineTimer
    private var connections: [StreamID: StreamConnection] = [:]
    private var listener: TCPListener?
    /// Accepted connections are named downwards from -1, apart from the machine's own ids.
    private var nextAcceptedID: StreamID = -1
    private var stopped = false

    /// `tls` is needed for secure destinations (`https`, `wss`).
    public init(loop: EventLoop, machine: Machine, tls: TLSClientContext? = nil) {
        self.loop = loop
        self.machine = machine
        self.tls = tls
        timer = DeadlineTimer(loop: loop)
        timer.action = { [weak self] in
            guard let self else { return }
            self.machine.handleTimeout(now: self.loop.now())
            self.drive()
        }
    }

    /// Starts carrying what the machine asks for (its first connect, for a client).
    public func run() { drive() }

    /// Changes the machine (a command: send, answer, hang up) and carries what follows.
    public func perform(_ change: (inout Machine, Instant) -> Void) {
        change(&machine, loop.now())
        drive()
    }

    /// Accepts connections on `address` for the machine, from now on; returns the bound address.
    @discardableResult
    public func listen(on address: SocketAddress) throws(SystemError) -> SocketAddress {
        let listener = try TCPListener(loop: loop, address: address)
        self.listener = listener
        listeningAddress = listener.localAddress
        listener.onAccept = { [weak self] connection in self?.accept(connection) }
        listener.onRefused = { [weak self] in self?.feed(.refusedAtDescriptorLimit) }
        return listener.localAddress
    }

    /// Where `listen` bound (kept after `stopListening`, for the report).
    public private(set) var listeningAddress: SocketAddress?

    /// Stops listening; connections stay until the machine closes them.
    public func stopListening() {
        listener?.close()
        listener = nil
    }

    /// Drops every connection and the timer at once, without telling the machine (the
    /// owner no longer needs it: a long poll, a run that ended).
    public func stop() {
        stopped = true
        timer.cancel()
        stopListening()
        for connection in connections.values { connection.close() }
        connections = [:]
    }

    /// Carries out what the machine asked for, reports its events and keeps its timer.
    private func drive() {
        guard !stopped else { return }
        while let output = machine.pollTransmit() {
            switch output {
            case .connect(let id, let destination): open(id, to: destination)
            case .write(let id, let bytes): write(bytes, to: id)
            case .close(let id): connections.removeValue(forKey: id)?.closeAfterWriting()
            case .abort(let id): connections.removeValue(forKey: id)?.close()
            }
        }
        while let event = machine.pollEvent() { onEvent(event) }
        guard !stopped else { return }
        timer.arm(at: machine.pollTimeout())
    }

    private func feed(_ input: StreamInput) {
        guard !stopped else { return }
        machine.handle(input, now: loop.now())
        drive()
    }

    private func write(_ bytes: [UInt8], to id: StreamID) {
        guard let connection = connections[id] else { return }
        connection.write(bytes)
        if connection.bufferedBytes > 0 {
            machine.handle(.backlog(id, bytes: connection.bufferedBytes, writes: connection.bufferedWrites), now: loop.now())
        }
    }

    private func open(_ id: StreamID, to destination: StreamDestination) {
        do {
            let address = try TargetResolver.resolve(host: destination.host, port: destination.port)
            var secure: (context: TLSClientContext, serverName: String)?
            if destination.secure {
                guard let tls else { throw TargetError("\(destination) needs TLS, and no TLS context was given") }
                secure = (tls, destination.host)
            }
            let connection = try StreamConnection(loop: loop, to: address, tls: secure)
            attach(connection, as: id)
            connection.onConnected = { [weak self] in self?.feed(.connected(id)) }
        } catch {
            // Told to the machine on the next turn of the loop, like any failed connect.
            _ = loop.schedule(after: .zero) { [weak self] in self?.feed(.failed(id, reason: "\(error)")) }
        }
    }

    private func accept(_ tcp: TCPConnection) {
        let id = nextAcceptedID
        nextAcceptedID -= 1
        attach(StreamConnection(accepted: tcp), as: id)
        feed(.accepted(id, from: tcp.remoteAddress.host))
    }

    /// Routes a connection's data and end to the machine while the machine still has it.
    private func attach(_ connection: StreamConnection, as id: StreamID) {
        connections[id] = connection
        connection.onData = { [weak self] bytes in
            guard let self, self.connections[id] != nil else { return }
            self.feed(.data(id, bytes))
        }
        connection.onEOF = { [weak self] in
            guard let self, self.connections.removeValue(forKey: id) != nil else { return }
            self.feed(.closed(id))
        }
        connection.onFailure = { [weak self] reason in
            guard let self, let connection = self.connections.removeValue(forKey: id) else { return }
            connection.close()
            self.feed(.failed(id, reason: reason))
        }
    }
}
