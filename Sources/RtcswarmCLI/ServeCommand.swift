import EventLoop
import RoomServer
import RTCBase
import Runtime
import Signaling

/// `rtcswarm serve`: the built-in room server on its own.
public enum ServeCommand: Subcommand {
    public static let spec = CommandSpec(
        name: "serve",
        summary: "Run the built-in room server (Socket.IO at /socket.io/, plain WebSocket at /ws, stats at /stats).",
        options: [
            .value("listen", "ADDRESS:PORT", default: "127.0.0.1:3000", "Where to listen (port 0 picks a free one)."),
            .value("capacity", "N", default: "2", "Members per room."),
            .value("max-connections", "N", default: "20000", "Connections at once; more are answered 503."),
            .value("max-rooms", "N", default: "10000", "Rooms at once."),
            .value("max-message-bytes", "N", default: "65536", "Largest WebSocket message; larger closes that connection (1009)."),
            .value("max-rate", "N", default: "100", "Messages per second per connection (bursts of twice that)."),
            .value("max-rate-per-address", "N", default: "2000",
                   "Messages per second from one client address over all its connections, so reconnecting buys none; 0: no limit."),
            .value("max-queued-bytes", "N", default: "1048576", "Unsent bytes held for a client that does not read; more drops it."),
            .value("max-queued-messages", "N", default: "1000", "Unsent messages held for a client that does not read; more drops it."),
            .value("handshake-timeout", "SECONDS", default: "5", "A connection with no complete HTTP request this long is closed."),
            .value("other-joined-event", "NAME", default: "other_joined", "Event the others get on a join (otherjoin on the public server)."),
        ],
        examples: ["rtcswarm serve", "rtcswarm serve --listen 127.0.0.1:0 --capacity 4"]
    )

    public static func run(_ arguments: ParsedArguments, console: Console) -> ExitCode {
        var configuration = RoomServerConfiguration()
        let listen = arguments.string("listen") ?? "127.0.0.1:3000"
        guard let address = SocketAddress(listen) else {
            console.error(UsageError("--listen \(listen): expected ADDRESS:PORT such as 127.0.0.1:3000",
                                     hint: "IPv6: [::1]:3000").description)
            return .usage
        }
        do {
            configuration.capacity = try arguments.int("capacity", in: 2...1_000) ?? 2
            configuration.maxConnections = try arguments.int("max-connections", in: 1...1_000_000) ?? 20_000
            configuration.maxRooms = try arguments.int("max-rooms", in: 1...1_000_000) ?? 10_000
            configuration.maxMessageBytes = try arguments.int("max-message-bytes", in: 256...16_777_216) ?? 65_536
            configuration.maxMessagesPerSecond = try arguments.double("max-rate", in: 1...100_000) ?? 100
            let perAddress = try arguments.double("max-rate-per-address", in: 0...10_000_000) ?? 2_000
            configuration.maxMessagesPerSecondPerAddress = perAddress > 0 ? perAddress : nil
            configuration.maxQueuedBytes = try arguments.int("max-queued-bytes", in: 4_096...1_073_741_824) ?? 1 << 20
            configuration.maxQueuedMessages = try arguments.int("max-queued-messages", in: 1...10_000_000) ?? 1_000
            let timeout = try arguments.double("handshake-timeout", in: 0.1...3_600) ?? 5
            configuration.handshakeTimeout = .milliseconds(Int64(timeout * 1000))
        } catch {
            console.error(error.description)
            return .usage
        }
        configuration.events = RoomEventNames(otherJoined: arguments.string("other-joined-event") ?? "other_joined")
        do {
            let loop = try EventLoop()
            let interrupts = try InterruptWatcher(loop: loop)
            let host = try RoomServerStream(loop: loop, address: address, configuration: configuration)
            console.out("rtcswarm room server listening on http://\(host.address) "
                        + "(Socket.IO /socket.io/, WebSocket /ws, stats /stats); Ctrl-C stops it")
            interrupts.onSignal = { _ in
                host.shutdown()
                loop.schedule(after: .milliseconds(200)) { loop.stop() }
            }
            loop.run()
            let stats = host.stats
            console.out("stopped: \(stats.acceptedConnections) connections, \(stats.joins) joins, "
                        + "\(stats.messagesRelayed) messages relayed, \(stats.rejects.values.reduce(0, +)) refused")
            return .success
        } catch {
            console.error("error: \(error.description)\nhint: is another server on \(listen)? try --listen 127.0.0.1:0")
            return .couldNotRun
        }
    }
}
