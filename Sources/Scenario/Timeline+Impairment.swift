import Impairment

/// Which of a peer's links an `impairment` action changes.
public enum ImpairmentDirection: String, AllowedValues {
    /// What the peer sends.
    case send
    /// What the peer receives (the default).
    case receive
}

extension Scenario {
    /// Group `index`'s impairment over the run: its own `impairment` schedules with each
    /// timeline `impairment` action naming it merged in, as a change at the action's second.
    /// The runtime reads a group's impairment only here, so a schedule written in the group
    /// and the same one written as timeline actions are one schedule.
    public func impairment(ofGroup index: Int) -> ImpairmentSettings? {
        var settings = groups[index].impairment
        for action in timeline ?? [] where action.action == .impairment && (action.group ?? .all).indexes(in: groups).contains(index) {
            guard let profile = action.profile else { continue }
            let change = ImpairmentSchedule.Change(offset: .milliseconds(ExecutionPlan.milliseconds(action.atS)), profile: profile)
            var merged = settings ?? ImpairmentSettings()
            switch action.direction ?? .receive {
            case .send: merged.send = Self.schedule(merged.send, with: change)
            case .receive: merged.receive = Self.schedule(merged.receive, with: change)
            }
            settings = merged
        }
        return settings
    }

    /// `schedule` with `change` in it; a link with no schedule is clean until the change.
    private static func schedule(_ schedule: ImpairmentSchedule?, with change: ImpairmentSchedule.Change) -> ImpairmentSchedule {
        (schedule ?? ImpairmentSchedule()).inserting(change)
    }
}

extension TimelineAction {
    /// An `impairment` action: a profile that validates, and no field of the peers'
    /// actions (it changes every link of the group at once, and never collides with a
    /// change the group's own schedule or an earlier action already makes at that time).
    func validateImpairment(path: String, scenario: Scenario, entry: Int, groups: [Int]) throws(ScenarioError) {
        guard let profile else {
            throw ScenarioError(path: "\(path).profile",
                                "impairment needs a profile: a preset (\(ImpairmentProfile.presetNames.joined(separator: ", "))) or an object such as { loss_pct: 5 }")
        }
        do {
            try profile.validate()
        } catch {
            throw ScenarioError(path: "\(path).profile.\(error.field)", error.message)
        }
        for (field, given) in [("share_pct", sharePct != nil), ("spread_s", spreadS != nil), ("resolution", resolution != nil),
                               ("fps", fps != nil), ("bitrate_kbps", bitrateKbps != nil), ("mode", mode != nil)] where given {
            throw ScenarioError(path: "\(path).\(field)", "\(field) is not for impairment, which changes every link of its groups at once (it takes at_s, group, profile and direction)")
        }
        let offset = Duration.milliseconds(ExecutionPlan.milliseconds(atS))
        for index in groups {
            var earlier = scenario
            earlier.timeline = Array((scenario.timeline ?? []).prefix(entry))
            let links = earlier.impairment(ofGroup: index)
            let schedule = (direction ?? .receive) == .send ? links?.send : links?.receive
            try check(!(schedule?.changes.contains { $0.offset == offset } ?? false), "\(path).at_s",
                      "groups[\(index)]'s \((direction ?? .receive).rawValue) impairment already changes at \(formatNumber(atS)) s; use another second")
        }
    }

    /// A field only `impairment` takes, given to another action.
    func checkNoImpairmentFields(path: String) throws(ScenarioError) {
        for (field, given) in [("profile", profile != nil), ("direction", direction != nil)] where given {
            throw ScenarioError(path: "\(path).\(field)", "only an impairment action takes \(field); \(action.rawValue) does not")
        }
    }
}
