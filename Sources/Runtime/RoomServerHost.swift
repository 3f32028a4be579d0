import EventLoop
import RoomServer
import RTCBase

/// The built-in room server on an event loop: a TCP listener whose connections feed
/// `RoomServerCore`, and a timer for its heartbeats. Used by `rtcswarm serve` and, on a
/// free loopback port, as the embedded default target of a run.
public final class RoomServerHost {
    public let loop: EventLoop
    public let listener: TCPListener
    public private(set) var core: RoomServerCore
    private var connections: [Int: TCPConnection] = [:]
    private var nextID = 1
    private let timer: DeadlineTimer

    public var address: SocketAddress { listener.localAddress }

    public init(loop: EventLoop, address: SocketAddress, configuration: RoomServerConfiguration, seed: UInt64 = 1) throws(SystemError) {
        self.loop = loop
        timer = DeadlineTimer(loop: loop)
        listener = try TCPListener(loop: loop, address: address)
        core = RoomServerCore(configuration: configuration, seed: seed)
        listener.onAccept = { [weak self] connection in self?.accept(connection) }
        listener.onRefused = { [weak self] in self?.core.refusedAtDescriptorLimit() }
    }

    private func accept(_ connection: TCPConnection) {
        let id = nextID
        nextID += 1
        connections[id] = connection
        connection.onRead = { [weak self] bytes in
            guard let self else { return }
            self.core.receive(id, bytes, now: self.loop.now())
            self.drive()
        }
        connection.onClose = { [weak self] _ in
            guard let self, self.connections.removeValue(forKey: id) != nil else { return }
            self.core.closed(id, now: self.loop.now())
            self.drive()
        }
        core.accept(id, from: connection.remoteAddress.host, now: loop.now())
        drive()
    }

    /// Carries out what the core asked for and keeps its timer armed.
    private func drive() {
        while let output = core.pollOutput() {
            switch output {
            case .send(let id, let bytes):
                guard let connection = connections[id] else { continue }
                connection.write(bytes)
                if connection.bufferedBytes > 0 {
                    core.unsent(id, bytes: connection.bufferedBytes, messages: connection.bufferedWrites, now: loop.now())
                }
            case .close(let id):
                connections.removeValue(forKey: id)?.closeAfterWriting()
            case .abort(let id):
                connections.removeValue(forKey: id)?.close()
            }
        }
        timer.arm(at: core.pollTimeout()) { [weak self] in
            guard let self else { return }
            self.core.handleTimeout(now: self.loop.now())
            self.drive()
        }
    }

    /// Sends every client Close 1001, stops listening, and closes what is left once the
    /// closes are written.
    public func shutdown() {
        listener.close()
        core.shutdown(now: loop.now())
        drive()
    }

    public var stats: RoomServerStats { core.stats }
}
