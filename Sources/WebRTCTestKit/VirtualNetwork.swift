import Impairment
import RTCBase

/// An in-memory UDP network in virtual time: nodes (any `DatagramMachine`: a `Peer`, a
/// server core, a test double) own addresses, and every datagram
/// crosses an `ImpairedLink` of its (source, destination) direction, seeded, so loss,
/// delay and jitter come from the `Impairment` target and runs are reproducible.
///
/// `progress(until:)` steps the nodes and links in time order: deliver what is due,
/// fire the nodes' timers, collect what they send, then jump to the next deadline
/// (next deadline first). Full calls run in milliseconds with no sockets.
///
/// OpenSSL's DTLS timers read the real clock (see `DtlsEndpoint`): in virtual time a
/// lost handshake flight is not retransmitted until real time passes, so start loss on
/// a link only after DTLS is done (`impair(from:to:profile:seed:)` at that point).
public final class VirtualNetwork {
    /// The virtual clock.
    public private(set) var now: Instant
    /// Datagrams whose destination no node owns.
    public private(set) var undeliverable = 0
    public private(set) var delivered = 0
    /// Instants at which nodes kept producing work for 10,000 rounds (a livelock).
    public private(set) var busyInstants = 0
    /// The profile of links not impaired explicitly.
    public let defaultProfile: ImpairmentProfile
    /// Sees every datagram delivered, before its destination does (captures, counters).
    public var tap: ((Transmit) -> Void)?

    private struct Direction: Hashable {
        var source: SocketAddress
        var destination: SocketAddress
    }

    /// The machines attached (they are reference types: the caller keeps its own handle).
    public typealias Node = any DatagramMachine & AnyObject
    private var nodes: [(node: Node, addresses: [SocketAddress])] = []
    private var owners: [SocketAddress: Int] = [:]
    private var links: [Direction: ImpairedLink<Transmit>] = [:]
    /// Links replaced by `impair` that still carry packets.
    private var retired: [ImpairedLink<Transmit>] = []
    private var seed: UInt64

    /// A network whose clock starts at `start`; links not impaired explicitly follow
    /// `defaultProfile` (clean by default: zero delay, no loss).
    public init(start: Instant = Instant(nanoseconds: 1_000_000_000), defaultProfile: ImpairmentProfile = ImpairmentProfile(), seed: UInt64 = 1) {
        now = start
        self.defaultProfile = defaultProfile
        self.seed = seed
    }

    /// Gives `node` the addresses its sockets are bound to.
    public func attach(_ node: Node, at addresses: [SocketAddress]) {
        nodes.append((node, addresses))
        for address in addresses { owners[address] = nodes.count - 1 }
    }

    /// From now on, datagrams from `source` to `destination` cross a link with `profile`
    /// (packets already in flight arrive as before).
    public func impair(from source: SocketAddress, to destination: SocketAddress, profile: ImpairmentProfile, seed: UInt64) {
        let direction = Direction(source: source, destination: destination)
        if let old = links[direction], old.inFlight > 0 { retired.append(old) }
        links[direction] = ImpairedLink(schedule: ImpairmentSchedule(profile), start: now, seed: seed)
    }

    /// What the link from `source` to `destination` did (loss, duplicates, delay).
    public func counters(from source: SocketAddress, to destination: SocketAddress) -> ImpairmentCounters? {
        links[Direction(source: source, destination: destination)]?.counters
    }

    /// Runs everything due up to `deadline`, then sets the clock to it.
    public func progress(until deadline: Instant) {
        while true {
            settle()
            guard let next = nextDeadline(), next <= deadline else { break }
            now = max(now, next)
        }
        now = max(now, deadline)
    }

    public func progress(for duration: Duration) { progress(until: now + duration) }

    /// Runs until `condition` holds (checked after each instant) or `limit` passes;
    /// returns whether it held.
    @discardableResult
    public func progress(until condition: () -> Bool, limit: Instant) -> Bool {
        while true {
            settle()
            if condition() { return true }
            guard let next = nextDeadline(), next <= limit else {
                now = max(now, limit)
                return condition()
            }
            now = max(now, next)
        }
    }

    /// Collects, delivers and fires timers at `now` until nothing more happens.
    private func settle() {
        for _ in 0..<10_000 {
            var active = collect()
            active = deliver() || active
            for index in nodes.indices where nodes[index].node.pollTimeout().map({ $0 <= now }) ?? false {
                nodes[index].node.handleTimeout(now: now)
                active = true
            }
            if !active { return }
        }
        busyInstants += 1
    }

    private func collect() -> Bool {
        var any = false
        for index in nodes.indices {
            let addresses = nodes[index].addresses
            while var transmit = nodes[index].node.pollTransmit() {
                any = true
                guard let source = transmit.source ?? addresses.first else { continue }
                transmit.source = source
                let direction = Direction(source: source, destination: transmit.destination)
                if links[direction] == nil { links[direction] = makeLink() }
                links[direction]?.send(transmit, now: now)
            }
        }
        return any
    }

    private func makeLink() -> ImpairedLink<Transmit> {
        seed &+= 0x9E37_79B9_7F4A_7C15
        return ImpairedLink(schedule: ImpairmentSchedule(defaultProfile), start: now, seed: seed)
    }

    private func deliver() -> Bool {
        var any = false
        for index in retired.indices {
            while let (transmit, _) = retired[index].pollDelivery(now: now) {
                route(transmit)
                any = true
            }
        }
        retired.removeAll { $0.inFlight == 0 }
        for direction in Array(links.keys) {
            while let (transmit, _) = links[direction]?.pollDelivery(now: now) {
                route(transmit)
                any = true
            }
        }
        return any
    }

    private func route(_ transmit: Transmit) {
        guard let owner = owners[transmit.destination], let source = transmit.source else {
            undeliverable += 1
            return
        }
        delivered += 1
        tap?(transmit)
        nodes[owner].node.handle(ReceivedDatagram(payload: transmit.payload, source: source, destination: transmit.destination), now: now)
    }

    private func nextDeadline() -> Instant? {
        var soonest: Instant?
        func consider(_ instant: Instant?) {
            guard let instant else { return }
            soonest = min(soonest ?? instant, instant)
        }
        for (node, _) in nodes { consider(node.pollTimeout()) }
        for link in links.values { consider(link.pollTimeout()) }
        for link in retired { consider(link.pollTimeout()) }
        return soonest
    }
}
