extension TimelineAction {
    /// Checks the action against the run and the groups it names: its time, its share, the
    /// values its kind needs, and whether those groups' peers can do it.
    func validate(path: String, entry: Int, scenario: Scenario) throws(ScenarioError) {
        try check(atS >= 0 && atS < scenario.durationS, "\(path).at_s",
                  "\(formatNumber(atS)) must be from 0 to less than the run's duration_s (\(formatNumber(scenario.durationS)))")
        if let sharePct {
            try check(sharePct > 0 && sharePct <= 100, "\(path).share_pct", "\(formatNumber(sharePct)) must be more than 0 and at most 100")
        }
        if let spreadS {
            try check(spreadS >= 0 && atS + spreadS < scenario.durationS, "\(path).spread_s",
                      "\(formatNumber(spreadS)) must be 0 or more and end before the run does (at_s + spread_s < \(formatNumber(scenario.durationS)))")
        }
        let groups = (group ?? .all).indexes(in: scenario.groups)
        try check(!groups.isEmpty, "\(path).group",
                  "names no group; use a group's index (0 to \(scenario.groups.count - 1)), its name, or \"all\"")
        if let named = group, named != .all, let browser = groups.first(where: { scenario.groups[$0].resolvedClient == .chromium }) {
            throw ScenarioError(path: "\(path).group", "groups[\(browser)] is run by Chromium, which the timeline cannot drive; "
                                + "name rtcswarm groups only (\"all\" leaves Chromium groups out)")
        }
        if action == .impairment {
            return try validateImpairment(path: path, scenario: scenario, entry: entry, groups: groups)
        }
        try checkNoImpairmentFields(path: path)
        switch action {
        case .leave, .rejoin, .churn:
            return try validateConnectionChange(path: path, scenario: scenario, groups: groups)
        case .iceRestart:
            return try validateIceRestart(path: path, scenario: scenario, groups: groups)
        case .videoResolution:
            guard let resolution else { throw ScenarioError(path: "\(path).resolution", "video.resolution needs a resolution, e.g. \"1280x720\"") }
            try VideoSettings.validate(resolution, path: "\(path).resolution")
        case .videoFps:
            guard let fps else { throw ScenarioError(path: "\(path).fps", "video.fps needs fps, e.g. 15") }
            try check(IntegerLimits.fps.contains(fps), "\(path).fps", IntegerLimits.outside("\(fps)", IntegerLimits.fps))
        case .videoBitrate:
            guard let bitrateKbps else { throw ScenarioError(path: "\(path).bitrate_kbps", "video.bitrate_kbps needs bitrate_kbps, e.g. 1500") }
            try VideoSettings.validate(bitrateKbps: bitrateKbps, path: "\(path).bitrate_kbps")
        case .videoMute, .videoUnmute, .audioMute, .audioUnmute:
            try validateMute(path: path, scenario: scenario, groups: groups)
            return
        case .impairment:
            break
        }
        try check(mode == nil, "\(path).mode", "only mute actions take a mode; \(action.rawValue) does not")
        for index in groups { try checkGroup(index, of: scenario, path: path) }
    }

    /// Whether group `index`'s peers can do this action: they send video, not a file, and
    /// are in the run by then.
    private func checkGroup(_ index: Int, of scenario: Scenario, path: String) throws(ScenarioError) {
        let group = scenario.groups[index]
        let start = group.startS ?? 0
        try check(atS >= start, "\(path).at_s",
                  "\(formatNumber(atS)) is before groups[\(index)] starts (start_s \(formatNumber(start))); its peers act from then until the run ends")
        try check([.publisher, .pair, .echo].contains(group.role), "\(path).action",
                  "\(action.rawValue): groups[\(index)] (role \(group.role.rawValue)) sends no video; only publisher, pair and echo peers do")
        try check(group.video(on: scenario.target) != nil, "\(path).action", "\(action.rawValue): groups[\(index)] has video disabled")
        try check(group.media?.video?.file == nil, "\(path).action",
                  "\(action.rawValue): groups[\(index)] sends a file as it is; its settings cannot change")
    }
}
