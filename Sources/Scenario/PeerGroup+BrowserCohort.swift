extension PeerGroup {
    /// The most Chromium peers one group runs: one browser holds them all, and each
    /// RTCPeerConnection encodes or decodes on this machine's few cores.
    public static let browserCohortLimit = 16

    /// A `client: "chromium"` group: publishers or players of an SRS, WHIP, WHEP or Janus
    /// VideoRoom target, or echo peers of Janus's EchoTest (Janus over its HTTP API), each an RTCPeerConnection in
    /// one headless Chromium that does its own signaling, ICE and DTLS, so none of
    /// rtcswarm's per-peer settings apply to it.
    func validateBrowserCohort(path: String, target: Target) throws(ScenarioError) {
        try check([.srs, .whip, .whep, .janus].contains(target.kind), "\(path).client",
                  "\"chromium\" publishes or plays on srs, whip, whep and janus targets and echoes on janus, not \(target.kind.rawValue); "
                  + "for a call with Chromium use role \"pair\" with partner \"chromium\" on a builtin-room target")
        if target.kind == .janus {
            if target.janus?.plugin == .videoroom {
                try check(target.janus?.roomId != nil, "target.janus.room_id",
                          "Chromium peers on Janus's VideoRoom meet in a named room: give its id (the publishers create it when Janus has none)")
            }
            let scheme = target.url?.split(separator: ":", maxSplits: 1).first?.lowercased()
            try check(scheme == "http" || scheme == "https", "target.url",
                      "Chromium peers speak Janus's HTTP API: use its http:// or https:// root (\"\(target.url ?? "")\" is its WebSocket API)")
        }
        try check(count <= Self.browserCohortLimit, "\(path).count",
                  "\(count) Chromium peers in one group: at most \(Self.browserCohortLimit) (one browser runs them all); split them into groups")
        try check(arrival?.stages == nil, "\(path).arrival.stages", "Chromium peers arrive at a rate only; use rate_per_s")
        let unsupported: [(String, Bool)] = [
            ("ice", ice != nil), ("impairment", impairment != nil), ("reconnect", reconnect != nil), ("data", data != nil),
            ("media.video.file", media?.video?.file != nil), ("media.receive_timeout_s", media?.receiveTimeoutS != nil),
        ]
        if let (key, _) = unsupported.first(where: \.1) {
            throw ScenarioError(path: "\(path).\(key)", "Chromium runs its own WebRTC stack, which rtcswarm does not configure; remove \(key) "
                                + "from this group (impair the network itself to impair Chromium: docs/scenarios.md, browser cohort)")
        }
        if role != .player, let codec = video(on: target)?.codec {
            try check([.vp8, .vp9, .h264, .av1].contains(codec), "\(path).media.video.codec",
                      "Chromium encodes vp8, vp9, h264 and av1, not \(codec.rawValue)")
        }
    }
}
