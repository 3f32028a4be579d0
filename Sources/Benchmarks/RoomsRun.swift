import EventLoop
import Foundation
import Net
import RoomServer
import RTCBase
import Runtime
import Signaling

/// One run of `RoomsBenchmark` with `members` clients: client `i` joins room `i / 2`.
final class RoomsRun {
    private enum Phase { case joining, joined, failed }

    let members: Int
    let connectWindow: Int
    let relaySeconds: Int
    private let loop: EventLoop
    private var clients: [RoomClientStream?] = []
    private var phases: [Phase] = []
    private var joined = 0
    private var failed = 0
    private var paired = 0
    private var failures: [String: Int] = [:]
    private var closing = false
    private var sent = 0
    private var latencies = LatencySamples()
    /// Resident bytes and members settled once the first window of clients settled: the
    /// base for memory per member, past the loops' and first connections' fixed costs.
    private var residentBase: (bytes: Int, settled: Int)?

    init(members: Int, connectWindow: Int, relaySeconds: Int) throws {
        self.members = members
        self.connectWindow = connectWindow
        self.relaySeconds = relaySeconds
        loop = try EventLoop()
    }

    func run() throws {
        let serverLoop = try EventLoop()
        let host = try RoomServerStream(
            loop: serverLoop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0), configuration: RoomServerConfiguration())
        let server = BackgroundLoop(serverLoop)
        let label = "rooms N=\(members)"

        let residentBefore = ProcessLimits.residentBytes()
        var client = Stopwatch()
        var serverCPU = server.cpuSeconds
        client.time { join(host.address) }
        let joinServerCPU = server.cpuSeconds - serverCPU
        let resident = ProcessLimits.residentBytes()
        let base = residentBase ?? (residentBefore, 0)
        let perMember = Double(resident - base.bytes) / Double(max(settled - base.settled, 1))
        print("\(label) join: \(joined)/\(members) joined, \(paired)/\(members / 2) rooms paired in "
              + String(format: "%.2f s: %.0f joins/s", client.wallSeconds, Double(joined) / client.wallSeconds)
              + " (TCP connect + WebSocket + Socket.IO + join, \(connectWindow) in flight); "
              + String(format: "server CPU %.2f s (%.0f us/join), clients CPU %.2f s; ", joinServerCPU,
                       joinServerCPU / Double(max(joined, 1)) * 1e6, client.cpuSeconds)
              + String(format: "RSS +%.1f MB, %.1f KB per member after the first %d (client and server ends)",
                       Double(resident - residentBefore) / 1e6, perMember / 1e3, base.settled)
              + failureSummary())

        var relayClient = Stopwatch()
        serverCPU = server.cpuSeconds
        relayClient.time { relay() }
        let relayServerCPU = server.cpuSeconds - serverCPU
        let rate = Double(sent) / Double(relaySeconds)
        print("\(label) relay: \(sent) messages sent over \(relaySeconds) s (" + String(format: "%.0f/s", rate)
              + "), \(latencies.count) received; latency \(latencies.summary()); "
              + String(format: "server CPU %.2f s = %.1f%% of a core (%.1f us/message), clients CPU %.2f s",
                       relayServerCPU, relayServerCPU / relayClient.wallSeconds * 100,
                       relayServerCPU / Double(max(latencies.count, 1)) * 1e6, relayClient.cpuSeconds)
              + failureSummary())

        tearDown(host: host, server: server)
        let stats = host.stats
        print("\(label) server stats: peak \(stats.peakConnections) connections, \(stats.joins) joins, "
              + "\(stats.messagesRelayed) messages relayed, rejects \(stats.rejects.isEmpty ? "none" : "\(stats.rejects)")")
    }

    private static func room(_ index: Int) -> String { "bench-\(index / 2)" }

    private var settled: Int { joined + failed }

    /// Opens clients, at most `connectWindow` of them not yet joined, until all joined or
    /// failed (or a minute passed).
    private func join(_ address: SocketAddress) {
        let endpoint = Endpoint(scheme: .http, host: "127.0.0.1", port: address.port)
        let deadline = loop.now() + .seconds(60)
        while settled < members, loop.now() < deadline {
            while clients.count < members, clients.count - settled < connectWindow {
                open(clients.count, endpoint: endpoint)
            }
            // Until all settled, or (with clients left to open) half the window is free.
            let opened = clients.count
            loop.run(until: {
                self.settled == self.members || (opened < self.members && opened - self.settled < self.connectWindow / 2)
            }, timeout: .milliseconds(200))
            if residentBase == nil, settled >= connectWindow, settled < members {
                residentBase = (ProcessLimits.residentBytes(), settled)
            }
        }
        loop.run(until: { self.paired == self.members / 2 }, timeout: .seconds(2))
    }

    private func open(_ index: Int, endpoint: Endpoint) {
        phases.append(.joining)
        let client = RoomClientStream(loop: loop, client: RoomClient(endpoint: endpoint, transport: .socketIO, names: RoomEventNames(),
                                                                     seed: UInt64(index + 1)), tls: nil) { [unowned self] event in
            self.handle(event, from: index)
        }
        client.send(.join(room: Self.room(index)))
        clients.append(client)
    }

    private func handle(_ event: RoomClient.Event, from index: Int) {
        switch event {
        case .message(.joined):
            if phases[index] == .joining {
                phases[index] = .joined
                joined += 1
            }
        case .message(.otherJoined):
            paired += 1
        case .message(.message(_, let data)):
            if let sentAt = data["t"]?.integerValue { latencies.record(loop.now().nanoseconds - sentAt) }
        case .message(.full(let room, _)):
            fail(index, "room \(room) full")
        case .message(.error(let code, _)):
            fail(index, "server error \(code)")
        case .closed(let reason):
            if !closing { fail(index, reason) }
        case .ready, .message:
            break
        }
    }

    private func fail(_ index: Int, _ reason: String) {
        failures[reason, default: 0] += 1
        switch phases[index] {
        case .joining: failed += 1
        case .joined: joined -= 1; failed += 1
        case .failed: return
        }
        phases[index] = .failed
    }

    private func failureSummary() -> String {
        guard !failures.isEmpty else { return "" }
        let top = failures.sorted { $0.value > $1.value }.prefix(3).map { "\($0.value)x \($0.key)" }
        return "; failures: " + top.joined(separator: ", ")
    }

    /// Every joined client sends one message per second for `relaySeconds`, the clients'
    /// sends spread evenly over each second; runs until all arrived or 3 s after the last.
    private func relay() {
        let start = loop.now() + .milliseconds(50)
        let spacing = 1e9 / Double(members)
        for index in clients.indices where phases[index] == .joined {
            send(from: index, round: 0, at: start + .nanoseconds(Int64(Double(index) * spacing)))
        }
        let end = start + .seconds(relaySeconds)
        loop.run(until: { self.loop.now() >= end && self.latencies.count >= self.sent },
                 timeout: .seconds(relaySeconds + 3))
    }

    private func send(from index: Int, round: Int, at time: Instant) {
        loop.schedule(at: time) { [unowned self] in
            guard phases[index] == .joined, let client = clients[index] else { return }
            let data: JSONValue = .object(["t": .integer(loop.now().nanoseconds), "round": .integer(Int64(round))])
            client.send(.message(room: Self.room(index), data: data))
            sent += 1
            if round + 1 < relaySeconds { send(from: index, round: round + 1, at: time + .seconds(1)) }
        }
    }

    /// Closes every client, lets the server see it, then stops the server's loop.
    private func tearDown(host: RoomServerStream, server: BackgroundLoop) {
        closing = true
        for client in clients { client?.close() }
        loop.run(until: { false }, timeout: .milliseconds(300))
        let bound = LoopBound(value: host)
        server.execute { bound.value.shutdown() }
        loop.run(until: { false }, timeout: .milliseconds(200))
        server.stop()
        clients.removeAll()
    }
}
