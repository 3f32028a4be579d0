import Net
import RoomServer
import RTCBase
import Signaling

/// Room clients wired to a room server in memory, in virtual time: bytes move between
/// them until nothing is left to move.
struct RoomHarness {
    var server: RoomServerCore
    var clients: [Int: RoomClient] = [:]
    var events: [Int: [RoomClient.Event]] = [:]
    /// Connections whose bytes are dropped on the way to the server (a silent client).
    var muted: Set<Int> = []
    var now = Instant(nanoseconds: 1_000_000_000)
    private var nextID = 1

    init(configuration: RoomServerConfiguration = RoomServerConfiguration()) {
        server = RoomServerCore(configuration: configuration, seed: 42)
    }

    mutating func connect(_ transport: RoomClient.Transport, names: RoomEventNames = RoomEventNames(),
                          from address: String = "127.0.0.1") -> Int {
        let id = nextID
        nextID += 1
        server.accept(id, from: address, now: now)
        clients[id] = RoomClient(endpoint: Endpoint(scheme: .http, host: "127.0.0.1", port: 3000), transport: transport, names: names, seed: UInt64(id))
        settle()
        return id
    }

    mutating func send(_ message: RoomMessage, from id: Int) {
        clients[id]?.send(message, now: now)
        settle()
    }

    /// Raw bytes from a connection, as if a broken client wrote them.
    mutating func sendRaw(_ bytes: [UInt8], from id: Int) {
        server.receive(id, bytes, now: now)
        settle()
    }

    /// The connection drops without a WebSocket close (a crashed browser).
    mutating func drop(_ id: Int) {
        clients[id] = nil
        server.closed(id, now: now)
        settle()
    }

    mutating func advance(by duration: Duration, step: Duration = .milliseconds(250)) {
        let end = now + duration
        while now < end {
            now = now + step
            server.handleTimeout(now: now)
            for id in clients.keys.sorted() { clients[id]?.handleTimeout(now: now) }
            settle()
        }
    }

    /// The room messages connection `id` received, in order.
    func messages(_ id: Int) -> [RoomMessage] {
        (events[id] ?? []).compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    func closeReason(_ id: Int) -> String? {
        (events[id] ?? []).compactMap { if case .closed(let reason) = $0 { reason } else { nil } }.first
    }

    mutating func settle() {
        var moved = true
        while moved {
            moved = false
            for id in clients.keys.sorted() {
                while let bytes = clients[id]?.pollTransmit() {
                    moved = true
                    if !muted.contains(id) { server.receive(id, bytes, now: now) }
                }
                while let event = clients[id]?.pollEvent() {
                    events[id, default: []].append(event)
                }
            }
            while let output = server.pollTransmit() {
                moved = true
                switch output {
                case .write(let id, let bytes): clients[id]?.handle(bytes, now: now)
                case .close(let id), .abort(let id): clients[id]?.handleEOF(now: now)
                case .connect: break  // the room server never connects out
                }
            }
        }
    }
}
