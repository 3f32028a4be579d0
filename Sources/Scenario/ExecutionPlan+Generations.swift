import RTCBase

extension ExecutionPlan {
    /// A timeline `leave`, `rejoin` or `churn` as one slot meets it: at `atMs` its
    /// connection closes, and a new one starts `returnAfterMs` later (nil: never).
    struct Departure: Equatable {
        var atMs: Int64
        var returnAfterMs: Int64?
        /// The timeline entry it comes from.
        var entry: Int
    }

    /// Every departure of `group`'s slots, by slot, in time order: `leave` and `rejoin` pick
    /// their share of slots as any action does (`picks`); `churn` replaces `rate_per_s`
    /// slots a second, at even steps through its window, taking the slots in a seeded order
    /// and starting over once each has had its turn.
    static func departures(in scenario: Scenario, group: Int) -> [Int: [Departure]] {
        var bySlot: [Int: [Departure]] = [:]
        for (entry, action) in (scenario.timeline ?? []).enumerated()
            where action.changesConnection && (action.group ?? .all).indexes(in: scenario.groups).contains(group) {
            if action.action == .churn {
                for (slot, at) in churnTimes(entry: entry, action, of: scenario, group: group) {
                    bySlot[slot, default: []].append(Departure(atMs: at, returnAfterMs: 0, entry: entry))
                }
            } else {
                let back = action.action == .rejoin ? milliseconds(action.afterS ?? 0) : nil
                for (slot, at) in picks(entry: entry, action, of: scenario, group: group) {
                    bySlot[slot, default: []].append(Departure(atMs: at, returnAfterMs: back, entry: entry))
                }
            }
        }
        return bySlot.mapValues { $0.sorted { $0.atMs < $1.atMs } }
    }

    /// When each replacement of a `churn` happens and which slot it replaces: the k-th of
    /// `rate_per_s * duration_s` at `at_s + (k + 1/2) / rate_per_s` (halfway through its
    /// step, so replacements never fall on the once-a-second samples).
    static func churnTimes(entry: Int, _ action: TimelineAction, of scenario: Scenario, group: Int) -> [(slot: Int, atMs: Int64)] {
        let count = scenario.groups[group].count
        guard count > 0, let rate = action.ratePerS, rate > 0 else { return [] }
        var generator = SeededGenerator(seed: SeededGenerator.mixing(scenario.effectiveSeed, 0x6368_726e, UInt64(entry), UInt64(group)))
        let order = Array(0..<count).shuffled(using: &generator)
        let window = action.durationS ?? (scenario.durationS - action.atS)
        let replacements = Int(min(rate * window, 1e6).rounded(.down))
        return (0..<replacements).map { k in
            (order[k % count], milliseconds(action.atS + (Double(k) + 0.5) / rate))
        }
    }

    /// `peer`'s connections: its life cut at each departure that falls inside it, each
    /// return a new generation (its own id, and for a pair its own room, so the new call
    /// never meets the old one's leftovers) that lives to the next departure or the old end.
    static func generations(of peer: Peer, _ departures: [Departure]) -> [Peer] {
        var result: [Peer] = []
        var current = peer
        for departure in departures {
            guard departure.atMs > current.startMs, departure.atMs < current.stopMs else { continue }
            let end = current.stopMs
            current.stopMs = departure.atMs
            current.leavesByTimeline = true
            current.leftBy = departure.entry
            result.append(current)
            guard let after = departure.returnAfterMs, departure.atMs + after < end else { return result }
            current.startMs = departure.atMs + after
            current.stopMs = end
            current.leavesByTimeline = false
            current.leftBy = nil
            current.generation += 1
            if current.side != .single { current.room = peer.room.map { "\($0)-gen\(current.generation)" } }
        }
        result.append(current)
        return result
    }
}
