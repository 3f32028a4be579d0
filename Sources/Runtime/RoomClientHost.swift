import EventLoop
import Net
import RTCBase
import Signaling

/// A room client on an event loop: its TCP connection, its timers, and its events
/// delivered to `onEvent`.
public final class RoomClientHost {
    public let loop: EventLoop
    public private(set) var client: RoomClient
    private let connection: TCPConnection
    private let timer: DeadlineTimer
    private var finished = false
    public var onEvent: (RoomClient.Event) -> Void = { _ in }

    /// Connects to `address` (the endpoint gives the Host header and the path).
    public init(loop: EventLoop, address: SocketAddress, endpoint: Endpoint, transport: RoomClient.Transport,
                names: RoomEventNames, seed: UInt64) throws(SystemError) {
        self.loop = loop
        timer = DeadlineTimer(loop: loop)
        client = RoomClient(endpoint: endpoint, transport: transport, names: names, seed: seed)
        connection = try TCPConnection.connect(loop: loop, to: address)
        connection.onConnect = { [weak self] error in
            guard let self else { return }
            if let error { self.fail("cannot connect to \(address): \(error)") } else { self.drive() }
        }
        connection.onRead = { [weak self] bytes in
            guard let self else { return }
            self.client.handle(bytes, now: self.loop.now())
            self.drive()
        }
        connection.onClose = { [weak self] error in
            // After `fail` or `close` the reason is already told; the handshake's own view of
            // the end ("closed without an answer") would hide a refused connect.
            guard let self, !self.finished else { return }
            self.client.handleEOF(now: self.loop.now())
            self.drive()
            self.fail(error.map { "signaling connection lost: \($0)" } ?? "signaling connection closed")
        }
    }

    public func send(_ message: RoomMessage) {
        client.send(message, now: loop.now())
        drive()
    }

    /// Closes politely: a WebSocket Close, then TCP once it is written.
    public func close() {
        guard !finished else { return }
        client.close(now: loop.now())
        drive()
        finished = true
        timer.cancel()
        connection.closeAfterWriting()
    }

    private func drive() {
        while let bytes = client.pollTransmit() { connection.write(bytes) }
        while let event = client.pollEvent() {
            if case .closed = event { finished = true }
            onEvent(event)
        }
        guard !finished else { return }
        timer.arm(at: client.pollTimeout()) { [weak self] in
            guard let self else { return }
            self.client.handleTimeout(now: self.loop.now())
            self.drive()
        }
    }

    private func fail(_ reason: String) {
        guard !finished else { return }
        finished = true
        timer.cancel()
        connection.close()
        onEvent(.closed(reason: reason))
    }
}
