/// Who starts when, with what: a pure function of the scenario, so it can be checked
/// against literal tables before any socket opens (the k6 way).
public struct ExecutionPlan: Equatable, Sendable {
    public enum Side: String, Codable, Sendable {
        /// A publisher, player, member or echo peer.
        case single
        /// The member of a pair who joins first and makes the offer.
        case caller
        /// The member of a pair who answers.
        case callee
    }

    public struct Peer: Equatable, Sendable {
        public var group: Int
        /// Index within the group (for pairs: the call's index, shared by both sides).
        public var index: Int
        public var side: Side
        public var startMs: Int64
        public var stopMs: Int64
        /// Which worker process runs it (both sides of a call share one, but for one-way
        /// calls: callers on even workers, callees on odd ones).
        public var worker: Int
        /// The room a pair or member joins.
        public var room: String?
        /// The stream a publisher publishes or a player plays.
        public var stream: String?
        /// Its connection's number in its slot: 0 first, one more after each timeline
        /// `rejoin` or `churn` (ExecutionPlan+Generations).
        public var generation = 0
        /// Its stop is a timeline `leave`, `rejoin` or `churn`, not the end of its stay, and
        /// which timeline entry that is.
        public var leavesByTimeline = false
        public var leftBy: Int?

        /// Its name in reports: `g<group>-<index>`, with `-caller` or `-callee` for a
        /// pair's sides and `-gen<n>` for a later connection of the slot.
        public var id: String {
            "g\(group)-\(index)" + (side == .single ? "" : "-\(side.rawValue)") + (generation == 0 ? "" : "-gen\(generation)")
        }
    }

    /// The peers rtcswarm's workers run.
    public let peers: [Peer]
    /// The peers of `client: "chromium"` groups, in start order: the coordinator's
    /// browsers run them, no worker does (their `worker` is 0).
    public let browserPeers: [Peer]
    public let durationMs: Int64
    /// The part of the scenario this plan runs (`Shard.whole` unless sharded).
    public let shard: Shard

    /// Arrival rate when the scenario gives none.
    public static let defaultRatePerSecond = 50.0

    /// The plan of `shard`'s part of the scenario (ExecutionPlan+Shards) over `workers`
    /// processes; the whole scenario by default.
    public init(scenario: Scenario, workers: Int, shard: Shard = .whole) {
        let workers = max(1, workers)
        self.shard = shard
        durationMs = Self.milliseconds(scenario.durationS)
        let publishers = scenario.groups.filter { $0.role == .publisher }.reduce(0) { $0 + $1.count }
        var dealer = ShardDealer(shard: shard)
        var peers: [Peer] = []
        var browserPeers: [Peer] = []
        var unit = 0
        for (groupIndex, group) in scenario.groups.enumerated() {
            let lifetimes = Self.lifetimes(of: group, runMs: durationMs)
            let capacity = scenario.target.room?.capacity ?? 2
            let prefix = scenario.target.room?.roomPrefix ?? "room-"
            let streamName = group.stream?.resolvedName ?? StreamSettings.defaultName
            let perPublisher = group.stream?.perPublisher ?? false
            let departures = Self.departures(in: scenario, group: groupIndex)
            for (slot, lifetime) in lifetimes {
                var peer = Peer(group: groupIndex, index: slot, side: .single, startMs: lifetime.lowerBound,
                                stopMs: lifetime.upperBound, worker: 0, room: nil, stream: nil)
                switch group.role {
                case .pair:
                    peer.room = "\(prefix)\(groupIndex)-\(slot)"
                case .member:
                    peer.room = "\(prefix)\(groupIndex)-\(slot / capacity)"
                case .publisher:
                    peer.stream = perPublisher ? "\(streamName)-\(slot)" : streamName
                case .player:
                    peer.stream = perPublisher && publishers > 0 ? "\(streamName)-\(slot % publishers)" : streamName
                case .echo:
                    break
                }
                guard dealer.takes(peer, perPublisher: perPublisher && (group.role == .publisher || publishers > 0)) else { continue }
                if group.resolvedClient == .chromium {
                    browserPeers.append(peer)
                    continue
                }
                peer.worker = unit % workers
                unit += 1
                // A browser or an outside client plays a pair's other side itself.
                if group.role == .pair {
                    peer.side = .caller
                    if (group.partner ?? .rtcswarm) == .rtcswarm {
                        let split = (group.oneWay ?? false) && workers > 1
                        if split { peer.worker = (2 * slot) % workers }
                        peers += Self.generations(of: peer, departures[slot] ?? [])
                        peer.side = .callee
                        if split { peer.worker = (2 * slot + 1) % workers }
                    }
                }
                peers += Self.generations(of: peer, departures[slot] ?? [])
            }
        }
        self.browserPeers = browserPeers.sorted { ($0.startMs, $0.group, $0.index) < ($1.startMs, $1.group, $1.index) }
        self.peers = peers.sorted { ($0.startMs, $0.group, $0.index, $0.side == .callee ? 1 : 0) < ($1.startMs, $1.group, $1.index, $1.side == .callee ? 1 : 0) }
    }

    /// When each slot of a group is alive: (slot, start..<stop) in milliseconds. A slot
    /// can live more than once when stages ramp down and up again.
    static func lifetimes(of group: PeerGroup, runMs: Int64) -> [(Int, Range<Int64>)] {
        let groupStart = milliseconds(group.startS ?? 0)
        let stayMs = group.durationS.map { milliseconds($0) }
        func stop(from start: Int64, limit: Int64) -> Int64 {
            min(limit, stayMs.map { start + $0 } ?? limit, runMs)
        }
        if let stages = group.arrival?.stages {
            return stagedLifetimes(stages, from: groupStart, runMs: runMs).compactMap { slot, range in
                let end = stop(from: range.lowerBound, limit: range.upperBound)
                return range.lowerBound < end ? (slot, range.lowerBound..<end) : nil
            }
        }
        let rate = group.arrival?.ratePerS ?? defaultRatePerSecond
        return (0..<group.count).compactMap { slot in
            let start = groupStart + milliseconds(Double(slot) / rate, rounding: .down)
            let end = stop(from: start, limit: runMs)
            return start < end ? (slot, start..<end) : nil
        }
    }

    /// k6-style ramping: the target level moves linearly over each stage; slot i starts
    /// when the level reaches i+1 and stops when it falls back to i (last in, first out).
    static func stagedLifetimes(_ stages: [Arrival.Stage], from groupStart: Int64, runMs: Int64) -> [(Int, Range<Int64>)] {
        var result: [(Int, Range<Int64>)] = []
        var openSince: [Int: Int64] = [:]
        var level = 0
        var stageStart = groupStart
        for stage in stages {
            let length = milliseconds(stage.durationS)
            let from = level, to = stage.target
            if to > from {
                for slot in from..<to {
                    openSince[slot] = stageStart + length * Int64(slot + 1 - from) / Int64(to - from)
                }
            } else if to < from {
                for slot in (to..<from).reversed() {
                    let stopAt = stageStart + length * Int64(from - slot) / Int64(from - to)
                    if let start = openSince.removeValue(forKey: slot) { result.append((slot, start..<stopAt)) }
                }
            }
            level = to
            stageStart = min(stageStart + length, Self.horizonMs)
        }
        // A slot that opens after the run's end (validation refuses such stages) never lives.
        for (slot, start) in openSince where start < runMs { result.append((slot, start..<runMs)) }
        return result.sorted { ($0.1.lowerBound, $0.0) < ($1.1.lowerBound, $1.0) }
    }

    /// The latest instant a plan holds (35 years): far beyond any run validation accepts (a
    /// week), and far enough from `Int64.max` that a start plus a stay, or a stage's length
    /// times a million slots, never overflows.
    static let horizonMs: Int64 = 1 << 40

    /// Seconds as whole milliseconds, clamped to 0...`horizonMs` (a NaN is 0): whatever
    /// the scenario says, the plan's arithmetic cannot trap.
    public static func milliseconds(_ seconds: Double, rounding: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int64 {
        let ms = (seconds * 1000).rounded(rounding)
        guard ms > 0 else { return 0 }
        return ms < Double(horizonMs) ? Int64(ms) : horizonMs
    }
}
