import RTCBase

/// One timeline action as one peer carries it out.
public struct PlannedAction: Equatable, Sendable {
    /// Its index in the scenario's `timeline`.
    public var entry: Int
    /// When, from the run's start.
    public var atMs: Int64
    public var action: TimelineAction
}

extension ExecutionPlan {
    /// The slots of `group` that timeline entry `entry` picks and when each acts: the
    /// scenario's seed shuffles the slots, the first `share_pct` of them act, at even steps
    /// over `spread_s` in that order. A pair's slot is a call: both its sides act. Every
    /// mute and unmute of one track shuffles alike, so an unmute with its mute's share
    /// picks the peers that mute did.
    static func picks(entry: Int, _ action: TimelineAction, of scenario: Scenario, group: Int) -> [Int: Int64] {
        let count = scenario.groups[group].count
        let salt = action.action.mutedTrack.map { 1 << 32 + ($0 == .video ? 0 : 1) } ?? UInt64(entry)
        var generator = SeededGenerator(seed: SeededGenerator.mixing(scenario.effectiveSeed, 0x7173_6c6e, salt, UInt64(group)))
        let slots = Array(0..<count).shuffled(using: &generator)
        let chosen = Int((Double(count) * (action.sharePct ?? 100) / 100).rounded())
        let start = milliseconds(action.atS)
        let spread = milliseconds(action.spreadS ?? 0)
        var picks: [Int: Int64] = [:]
        for (order, slot) in slots.prefix(chosen).enumerated() {
            picks[slot] = start + (chosen > 1 ? spread * Int64(order) / Int64(chosen - 1) : 0)
        }
        return picks
    }

    /// What `peer` does during the run, in time order. An `impairment` is not the peer's to
    /// do: its links carry it in their schedule (`Scenario.impairment(ofGroup:)`); nor are
    /// leaving and coming back: the plan's generations carry those.
    public static func actions(for peer: Peer, in scenario: Scenario) -> [PlannedAction] {
        var planned: [PlannedAction] = []
        for (entry, action) in (scenario.timeline ?? []).enumerated()
            where action.action != .impairment && !action.changesConnection && (action.group ?? .all).indexes(in: scenario.groups).contains(peer.group) {
            if let at = picks(entry: entry, action, of: scenario, group: peer.group)[peer.index] {
                planned.append(PlannedAction(entry: entry, atMs: at, action: action))
            }
        }
        return planned.sorted { ($0.atMs, $0.entry) < ($1.atMs, $1.entry) }
    }

    /// The size changes of the video `peer` receives (its sender's `video.resolution` actions).
    public func videoSizeChanges(receivedBy peer: Peer, in scenario: Scenario) -> [PlannedAction] {
        sendersActions(receivedBy: peer, in: scenario).filter { $0.action.action == .videoResolution }
    }

    /// When the media `peer` receives is planned muted (its sender's mutes and unmutes).
    public func muteWindows(receivedBy peer: Peer, in scenario: Scenario) -> [MuteWindow] {
        MuteWindow.windows(of: sendersActions(receivedBy: peer, in: scenario))
    }

    /// The actions of the sender of what `peer` receives: the other side of its call (the
    /// same slot) or, for a player, the publisher of its stream.
    private func sendersActions(receivedBy peer: Peer, in scenario: Scenario) -> [PlannedAction] {
        let sender: Peer? = switch scenario.groups[peer.group].role {
        case .pair, .echo: peer
        case .player: peers.first { $0.stream == peer.stream && scenario.groups[$0.group].role == .publisher }
        case .publisher, .member: nil
        }
        guard let sender else { return [] }
        return Self.actions(for: sender, in: scenario)
    }
}
