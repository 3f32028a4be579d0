extension TimelineAction {
    /// The timeline actions that end a peer's connection (and for some start a new one):
    /// the plan cuts the peer's life at them (`ExecutionPlan+Generations.swift`) instead of
    /// handing them to the running peer.
    public var changesConnection: Bool { [.leave, .rejoin, .churn].contains(action) }

    /// `leave`, `rejoin`, `churn`: the values each needs, and groups whose other side
    /// rtcswarm drives (a browser or an outside client does not come back when told).
    func validateConnectionChange(path: String, scenario: Scenario, groups: [Int]) throws(ScenarioError) {
        let name = action.rawValue
        switch action {
        case .rejoin:
            guard let afterS else { throw ScenarioError(path: "\(path).after_s", "rejoin needs after_s, the seconds until it comes back, e.g. 2") }
            try check(afterS >= 0 && atS + (spreadS ?? 0) + afterS < scenario.durationS, "\(path).after_s",
                      "\(formatNumber(afterS)) must be 0 or more and come back before the run ends (at_s + spread_s + after_s < \(formatNumber(scenario.durationS)))")
        case .churn:
            guard let ratePerS else { throw ScenarioError(path: "\(path).rate_per_s", "churn needs rate_per_s, the peers (for pairs: calls) replaced a second, e.g. 2") }
            try check(sharePct == nil, "\(path).share_pct", "churn picks its peers by rate_per_s; leave share_pct out")
            try check(spreadS == nil, "\(path).spread_s", "churn spreads its replacements evenly by itself; leave spread_s out")
            let window = durationS ?? (scenario.durationS - atS)
            if let durationS {
                try check(durationS > 0 && atS + durationS <= scenario.durationS, "\(path).duration_s",
                          "\(formatNumber(durationS)) must be more than 0 and end by the run's end (at_s + duration_s <= \(formatNumber(scenario.durationS)))")
            }
            try check(ratePerS > 0 && ratePerS <= 1000 && ratePerS * window >= 1, "\(path).rate_per_s",
                      "\(formatNumber(ratePerS)) must be at most 1000 and replace at least one peer in its \(formatNumber(window)) s (rate_per_s * duration_s >= 1)")
        default:
            try check(afterS == nil, "\(path).after_s", "only rejoin comes back; \(name) takes no after_s")
        }
        if action != .churn {
            try check(ratePerS == nil, "\(path).rate_per_s", "only churn has a rate; \(name) takes no rate_per_s")
            try check(durationS == nil, "\(path).duration_s", "only churn lasts; \(name) takes no duration_s")
        }
        for index in groups where scenario.groups[index].role == .pair {
            let partner = scenario.groups[index].resolvedPartner
            try check(partner == .rtcswarm, "\(path).action",
                      "\(name): groups[\(index)] calls a \(partner.rawValue) partner, which rtcswarm cannot make leave or come back; only rtcswarm partners can")
        }
    }
}

extension TimelineAction {
    /// `ice.restart`: pairs through a room server whose callee is an rtcswarm peer or the
    /// Chromium `/peer` page (both answer a new offer through the room), and Janus echo and
    /// publisher peers (our offer again in a plugin message); other targets, roles and
    /// partners are named.
    func validateIceRestart(path: String, scenario: Scenario, groups: [Int]) throws(ScenarioError) {
        let kind = scenario.target.kind
        if kind == .janus {
            for index in groups {
                let role = scenario.groups[index].role
                try check(role == .echo || role == .publisher, "\(path).action",
                          "ice.restart: groups[\(index)] (role \(role.rawValue)) is offered its call by Janus; only echo and publisher groups restart ICE on janus")
            }
            return
        }
        try check(kind == .builtinRoom || kind == .room, "\(path).action",
                  "ice.restart: target kind \(kind.rawValue) has no ICE restart in rtcswarm; only pairs through builtin-room or room, and echo and publisher groups on janus, do")
        for index in groups {
            let group = scenario.groups[index]
            try check(group.role == .pair, "\(path).action",
                      "ice.restart: groups[\(index)] (role \(group.role.rawValue)) makes no call through the room; only pair groups restart ICE")
            try check(group.resolvedPartner != .external, "\(path).action",
                      "ice.restart: groups[\(index)]'s partner is external, which rtcswarm cannot have answer a new offer; only rtcswarm and chromium partners restart ICE")
        }
    }
}
