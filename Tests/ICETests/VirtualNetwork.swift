import ICE
import RTCBase
import STUN

/// Something attached to the virtual network: an ICE agent, or a scripted STUN/TURN peer.
protocol Endpoint {
    /// Returns application data that came out of the datagram (an ICE agent's relayed data).
    mutating func handle(_ bytes: [UInt8], from source: SocketAddress, to local: SocketAddress, now: Instant) -> [UInt8]?
    mutating func handleTimeout(now: Instant)
    mutating func pollTransmit() -> Transmit?
    func pollTimeout() -> Instant?
}

extension IceAgent: Endpoint {}

/// A tiny router in virtual time: every datagram takes `delay`; `drop` may discard any.
/// `run` steps whichever is due next, a packet or an endpoint's timer, with no sockets.
struct VirtualNetwork {
    struct Node {
        var endpoint: any Endpoint
        var addresses: Set<SocketAddress>
        /// Every IceEvent the node produced, with the time it was polled.
        var events: [(at: Instant, event: IceEvent)] = []
        /// Application data the endpoint returned from `handle`.
        var received: [[UInt8]] = []
    }

    struct Packet {
        var deliverAt: Instant
        var transmit: Transmit
        var sequence: Int
    }

    var now = Instant.zero
    var delay: Duration = .milliseconds(10)
    var nodes: [Node] = []
    var inFlight: [Packet] = []
    var sent = 0
    /// Return true to lose a datagram (called once per datagram, in send order).
    var drop: (Transmit) -> Bool = { _ in false }
    /// Every datagram delivered: (time, transmit).
    var delivered: [(at: Instant, transmit: Transmit)] = []

    @discardableResult
    mutating func attach(_ endpoint: any Endpoint, at addresses: [SocketAddress]) -> Int {
        nodes.append(Node(endpoint: endpoint, addresses: Set(addresses)))
        return nodes.count - 1
    }

    func agent(_ index: Int) -> IceAgent? { nodes[index].endpoint as? IceAgent }

    /// Applies `change` to the agent at `index` and flushes what it queued.
    mutating func withAgent(_ index: Int, _ change: (inout IceAgent) -> Void) {
        guard var agent = nodes[index].endpoint as? IceAgent else { return }
        change(&agent)
        nodes[index].endpoint = agent
        flush()
    }

    func events(_ index: Int) -> [IceEvent] { nodes[index].events.map(\.event) }

    /// The first time node `index` produced an event matching `match`.
    func time(_ index: Int, of match: (IceEvent) -> Bool) -> Instant? {
        nodes[index].events.first { match($0.event) }?.at
    }

    /// Runs until `until` or until `stop` holds after a step.
    mutating func run(until: Instant, stop: (VirtualNetwork) -> Bool = { _ in false }) {
        flush()
        for _ in 0..<2_000_000 {
            if stop(self) { return }
            var next = inFlight.map(\.deliverAt).min()
            for node in nodes {
                if let timeout = node.endpoint.pollTimeout() { next = min(next ?? timeout, timeout) }
            }
            guard let due = next, due <= until else {
                now = until
                return
            }
            now = max(now, due)
            let arriving = inFlight.filter { $0.deliverAt <= now }.sorted { $0.sequence < $1.sequence }
            inFlight.removeAll { $0.deliverAt <= now }
            for packet in arriving {
                guard let target = nodes.firstIndex(where: { $0.addresses.contains(packet.transmit.destination) }),
                      let source = packet.transmit.source
                else { continue }
                delivered.append((now, packet.transmit))
                if let data = nodes[target].endpoint.handle(packet.transmit.payload, from: source, to: packet.transmit.destination, now: now) {
                    nodes[target].received.append(data)
                }
            }
            for index in nodes.indices {
                if let timeout = nodes[index].endpoint.pollTimeout(), timeout <= now {
                    nodes[index].endpoint.handleTimeout(now: now)
                }
            }
            flush()
        }
        fatalError("virtual network did not settle")
    }

    /// Moves queued datagrams into flight and collects events.
    mutating func flush() {
        for index in nodes.indices {
            while let transmit = nodes[index].endpoint.pollTransmit() {
                sent += 1
                if !drop(transmit) {
                    inFlight.append(Packet(deliverAt: now + delay, transmit: transmit, sequence: sent))
                }
            }
            if var agent = nodes[index].endpoint as? IceAgent {
                while let event = agent.pollEvent() { nodes[index].events.append((now, event)) }
                nodes[index].endpoint = agent
            }
        }
    }
}
