import Foundation
import Impairment
import Metrics
import RTCBase

extension Scenario {
    /// Checks what types alone cannot: ranges, combinations that cannot work (a VP8
    /// publisher on SRS), and references. Throws the first problem with its path.
    public func validate() throws(ScenarioError) {
        try check(durationS > 0 && durationS <= 7 * 86_400, "duration_s", "\(formatNumber(durationS)) must be more than 0 and at most 604800 (a week)")
        try check(!name.isEmpty, "name", "must not be empty")
        try check(Self.folderSafeName(name) == name, "name",
                  "\"\(name)\" names the report folder: use letters, digits, -, _ and . only, not starting with a dot "
                  + "(e.g. \"\(Self.folderSafeName(name))\")")
        try target.validate()
        try check(!groups.isEmpty, "groups", "needs at least one group")
        for (index, group) in groups.enumerated() {
            try group.validate(path: "groups[\(index)]", target: target, scenarioDuration: durationS)
        }
        if let matrix { try matrix.validate(target: target) }
        for (index, action) in (timeline ?? []).enumerated() {
            try action.validate(path: "timeline[\(index)]", entry: index, scenario: self)
        }
        for (index, threshold) in (thresholds ?? []).enumerated() {
            let parsed: Threshold
            do {
                parsed = try Threshold(parsing: threshold.expr)
            } catch {
                throw ScenarioError(path: "thresholds[\(index)]", error.description)
            }
            let range = parsed.address.name.possibleValues
            try check(parsed.canHold, "thresholds[\(index)]",
                      "\"\(threshold.expr)\" can never hold: \(parsed.address.name.rawValue) is never below \(formatNumber(range.lowerBound))"
                      + (range.upperBound < .greatestFiniteMagnitude ? " nor above \(formatNumber(range.upperBound))" : ""))
        }
        if let workers = run?.workers {
            try check(IntegerLimits.workers.contains(workers), "run.workers", IntegerLimits.outside("\(workers)", IntegerLimits.workers))
        }
        if let sample = run?.decodeSamplePct {
            try check((0...100).contains(sample), "run.decode_sample_pct", "\(formatNumber(sample)) must be from 0 to 100")
        }
        if let batching = run?.wakeupBatchingMs {
            try check((0...20).contains(batching), "run.wakeup_batching_ms", "\(formatNumber(batching)) must be from 0 to 20")
        }
        if let listen = run?.metricsListen {
            try check(SocketAddress(listen) != nil, "run.metrics_listen", "\"\(listen)\" must be ADDRESS:PORT such as 127.0.0.1:9464")
        }
    }
}

func check(_ condition: Bool, _ path: String, _ message: @autoclosure () -> String) throws(ScenarioError) {
    if !condition { throw ScenarioError(path: path, message()) }
}

extension Target {
    /// The roles that make sense against this kind of target.
    public var allowedRoles: [PeerGroup.Role] {
        switch kind {
        case .builtinRoom, .room: return [.pair, .member]
        case .tcpP2P: return [.pair]
        case .srs: return [.publisher, .player]
        case .whip: return whepUrl == nil ? [.publisher] : [.publisher, .player]
        case .whep: return [.player]
        case .janus: return janus?.plugin == .echotest ? [.echo] : [.publisher, .player]
        case .owt: return [.publisher, .player, .member]
        }
    }

    /// Video codecs the target accepts (SRS: H.264, H.265 with `?codec=hevc` and AV1 with
    /// `?codec=av1`, PROTOCOLS.md and TARGETS.md; H.265 and AV1 elsewhere only between
    /// rtcswarm's own peers).
    public var allowedCodecs: [VideoSettings.Codec] {
        switch kind {
        case .srs: [.h264, .h265, .av1]
        case .builtinRoom, .room, .tcpP2P: VideoSettings.Codec.allCases
        case .whip, .whep, .janus, .owt: [.vp8, .vp9, .h264]
        }
    }

    /// Why `codec` cannot go to this target, naming the codecs it takes.
    func refusal(of codec: VideoSettings.Codec) -> String {
        "\"\(codec.rawValue)\" is not accepted by \(kind.rawValue) (video \(allowedCodecs.map(\.rawValue).joined(separator: ", ")) with Opus)"
    }

    func validate() throws(ScenarioError) {
        switch kind {
        case .builtinRoom:
            try check(url == nil, "target.url", "builtin-room starts its own server on loopback; remove url or use kind \"room\"")
        case .room:
            let transport = room?.transport ?? .socketio
            try requireURL(schemes: transport == .socketio ? ["http", "https", "ws", "wss"] : ["ws", "wss"])
        case .srs, .whip, .whep:
            try requireURL(schemes: ["http", "https"])
        case .janus:
            // http(s): the REST API with a long poll; ws(s): the WebSocket API (janus-protocol).
            try requireURL(schemes: ["http", "https", "ws", "wss"])
        case .tcpP2P:
            try requireURL(schemes: ["tcp"])
            let port = url.flatMap { $0.split(separator: ":").last.flatMap { UInt16($0.filter(\.isNumber)) } } ?? 0
            try check(port > 0, "target.url", "\"\(url ?? "")\" needs a port: call i's caller listens on that port + i")
        case .owt:
            try check(url == nil, "target.url", "an owt target's portal is target.owt.portal; remove url")
            try check(owt != nil, "target.owt", "owt needs { portal, token } or { portal, service_id, service_key, room }")
        }
        if let owt { try owt.validate(kind: kind) }
        if let whepUrl {
            try check(kind == .whip, "target.whep_url", "only for kind \"whip\" (its players play through WHEP); remove it")
            let scheme = whepUrl.split(separator: ":", maxSplits: 1).first?.lowercased() ?? ""
            try check(whepUrl.contains("://") && ["http", "https"].contains(scheme), "target.whep_url",
                      "\"\(whepUrl)\" must start with http:// or https://")
        }
        if kind == .janus { try check(janus != nil, "target.janus", "janus needs { plugin: \"echotest\" } or { plugin: \"videoroom\" }") }
        if let admin = janus?.adminUrl {
            let scheme = admin.split(separator: ":", maxSplits: 1).first?.lowercased() ?? ""
            try check(admin.contains("://") && ["http", "https"].contains(scheme), "target.janus.admin_url",
                      "\"\(admin)\" must start with http:// or https:// (Janus's admin API, e.g. http://127.0.0.1:7088/admin)")
        }
        if let capacity = room?.capacity {
            try check(kind == .builtinRoom, "target.room.capacity", "only the built-in room server's capacity can be set")
            try check(IntegerLimits.roomCapacity.contains(capacity), "target.room.capacity",
                      IntegerLimits.outside("\(capacity)", IntegerLimits.roomCapacity))
        }
        if let rate = room?.maxRatePerAddress {
            try check(kind == .builtinRoom, "target.room.max_rate_per_address", "only the built-in room server's limits can be set")
            try check(rate > 0 && rate <= 10_000_000, "target.room.max_rate_per_address", "\(formatNumber(rate)) must be more than 0 and at most 10000000")
        }
        if let eip = srs?.eip {
            try check(SocketAddress(host: eip, port: 0) != nil, "target.srs.eip", "\"\(eip)\" is not an IP address")
        }
    }

    private func requireURL(schemes: [String]) throws(ScenarioError) {
        guard let url, !url.isEmpty else {
            throw ScenarioError(path: "target.url", "\(kind.rawValue) needs a url, e.g. \(Self.exampleURL(kind))")
        }
        let scheme = url.split(separator: ":", maxSplits: 1).first.map(String.init)?.lowercased() ?? ""
        try check(url.contains("://") && schemes.contains(scheme), "target.url",
                  "\"\(url)\" must start with \(schemes.map { "\($0)://" }.joined(separator: " or "))")
    }

    static func exampleURL(_ kind: Kind) -> String {
        switch kind {
        case .builtinRoom, .room: return "\"${ROOM_URL:-http://127.0.0.1:3000}\""
        case .srs: return "\"${SRS_URL:-http://127.0.0.1:1985}\""
        case .whip: return "\"${WHIP_URL:-http://127.0.0.1:1985/rtc/v1/whip/?app=live&stream=livestream}\""
        case .whep: return "\"${WHEP_URL:-http://127.0.0.1:1985/rtc/v1/whep/?app=live&stream=livestream}\""
        case .janus: return "\"${JANUS_URL:-http://127.0.0.1:8088/janus}\""
        case .tcpP2P: return "\"tcp://127.0.0.1:7000\""
        case .owt: return "\"${OWT_URL:-http://127.0.0.1:8080}\""
        }
    }
}

extension OWTSettings {
    func validate(kind: Target.Kind) throws(ScenarioError) {
        try check(kind == .owt, "target.owt", "only for kind \"owt\"; remove it")
        try checkURL(portal, "target.owt.portal", example: Target.exampleURL(.owt))
        if let restUrl { try checkURL(restUrl, "target.owt.rest_url", example: "\"http://127.0.0.1:3000\"") }
        let service = (serviceId, serviceKey)
        try check((service.0 == nil) == (service.1 == nil), "target.owt.service_id",
                  "service_id and service_key go together (the REST API signs with the key of that service)")
        try check((token == nil) != (service.0 == nil), "target.owt.token",
                  token == nil ? "give a token, or service_id and service_key to ask the REST API for one per peer"
                               : "give a token or service_id and service_key, not both")
        if let token { try check(!token.isEmpty, "target.owt.token", "must not be empty") }
        if service.0 != nil {
            try check(!(room ?? "").isEmpty, "target.owt.room", "the REST API issues tokens for a room: set room to its id")
        }
        if let engineIo { try check(engineIo == 3 || engineIo == 4, "target.owt.engine_io", "\(engineIo) must be 3 or 4") }
        if let textRatePerS {
            try check(textRatePerS > 0 && textRatePerS <= 100, "target.owt.text_rate_per_s", "\(formatNumber(textRatePerS)) must be more than 0 and at most 100")
        }
    }

    private func checkURL(_ url: String, _ path: String, example: String) throws(ScenarioError) {
        let scheme = url.split(separator: ":", maxSplits: 1).first?.lowercased() ?? ""
        try check(url.contains("://") && ["http", "https"].contains(scheme), path,
                  "\"\(url)\" must start with http:// or https://, e.g. \(example)")
    }
}

extension PeerGroup {
    func validate(path: String, target: Target, scenarioDuration: Double) throws(ScenarioError) {
        try check(target.allowedRoles.contains(role), "\(path).role",
                  "\"\(role.rawValue)\" does not work with a \(target.kind.rawValue) target; use \(target.allowedRoles.map(\.rawValue).joined(separator: " or "))")
        if role == .player, target.kind == .janus {
            try check(target.janus?.roomId != nil, "target.janus.room_id",
                      "Janus VideoRoom players (\(path)) subscribe in a room their publishers join; set room_id to a room in "
                      + "Janus's videoroom configuration (Debian's sample has 1234)")
        }
        if stream?.from != nil {
            try check(target.kind == .owt && role == .player, "\(path).stream.from", "only OWT players choose forward or mixed; remove it")
        }
        try check(IntegerLimits.count.contains(count), "\(path).count", IntegerLimits.outside("\(count)", IntegerLimits.count))
        if oneWay == true {
            try check(role == .pair, "\(path).one_way", "one-way calls are pairs: use role \"pair\" or remove one_way")
        }
        if role == .pair {
            try check(video(on: target) != nil || audio != nil || data != nil, "\(path).media",
                      "a call needs audio, video or data channels: enable media.audio or media.video, or add data")
        }
        if partner == .external {
            try check(role == .pair, "\(path).partner", "\"external\" answers calls: it needs role \"pair\"")
            try check(target.kind == .room || target.kind == .tcpP2P, "\(path).partner",
                      "\"external\" clients join rooms on a server you run or connect to rtcswarm's socket: use target kind "
                      + "\"room\" or \"tcp-p2p\" with its url")
        }
        if partner == .chromium {
            try check(role == .pair, "\(path).partner", "\"chromium\" answers calls: it needs role \"pair\"")
            try check(target.kind == .builtinRoom, "\(path).partner",
                      "\"chromium\" loads its page from the built-in room server: use target kind \"builtin-room\"")
            try check(count <= 16, "\(path).count", "\(count) calls with one Chromium page: at most 16")
        }
        if client == .chromium { try validateBrowserCohort(path: path, target: target) }
        if let start = startS {
            try check(start >= 0 && start < scenarioDuration, "\(path).start_s", "\(formatNumber(start)) must be from 0 to less than the run's duration_s (\(formatNumber(scenarioDuration)))")
        }
        if let duration = durationS { try check(duration > 0, "\(path).duration_s", "\(formatNumber(duration)) must be more than 0") }
        if let arrival {
            try arrival.validate(path: "\(path).arrival", count: count, groupStart: startS ?? 0, runDuration: scenarioDuration)
        }
        if let video = media?.video { try video.validate(path: "\(path).media.video", target: target) }
        if let audio = media?.audio { try audio.validate(path: "\(path).media.audio") }
        if let timeout = media?.receiveTimeoutS {
            try check(timeout > 0 && timeout <= 3_600, "\(path).media.receive_timeout_s", "\(formatNumber(timeout)) must be more than 0 and at most 3600")
        }
        if let ice { try ice.validate(path: "\(path).ice") }
        if let impairment {
            try impairment.send?.validate(path: "\(path).impairment.send")
            try impairment.receive?.validate(path: "\(path).impairment.receive")
        }
        if media != nil {
            try check(role != .member, "\(path).media", "members exchange signaling only; remove media or use role \"pair\"")
        }
        if let data { try data.validate(path: "\(path).data", group: self, target: target) }
        if let reconnect {
            try check([.publisher, .player, .echo].contains(role), "\(path).reconnect",
                      "reconnect is for publisher, player and echo peers (a server's clients); \"\(role.rawValue)\" peers do not reconnect")
            try check((0...100).contains(reconnect.attempts), "\(path).reconnect.attempts", "\(reconnect.attempts) must be from 0 to 100")
            if let delay = reconnect.delayS {
                try check(delay >= 0 && delay <= 3_600, "\(path).reconnect.delay_s", "\(formatNumber(delay)) must be from 0 to 3600")
            }
        }
    }
}

extension Arrival {
    /// Each stage must end by the run's end: a ramp the run never reaches is a mistake in
    /// the file (often a `duration_s` override that forgot the stages).
    func validate(path: String, count: Int, groupStart: Double, runDuration: Double) throws(ScenarioError) {
        try check((ratePerS == nil) != (stages == nil), path, "give either rate_per_s or stages, not both and not neither")
        if let rate = ratePerS { try check(rate > 0 && rate <= 100_000, "\(path).rate_per_s", "\(formatNumber(rate)) must be more than 0 and at most 100000") }
        guard let stages else { return }
        try check(!stages.isEmpty, "\(path).stages", "needs at least one stage")
        var end = groupStart
        for (index, stage) in stages.enumerated() {
            try check(stage.durationS > 0, "\(path).stages[\(index)].duration_s", "\(formatNumber(stage.durationS)) must be more than 0")
            end += stage.durationS
            try check(end <= runDuration + 1e-6, "\(path).stages[\(index)].duration_s",
                      "\(formatNumber(stage.durationS)) makes stage \(index + 1) end at \(formatNumber(end)) s (the group's start_s "
                      + "\(formatNumber(groupStart)) plus the stages so far), after the run's duration_s (\(formatNumber(runDuration))); "
                      + "shorten the stages or lengthen duration_s")
            try check((0...count).contains(stage.target), "\(path).stages[\(index)].target",
                      "\(stage.target) must be from 0 to the group's count (\(count))")
        }
    }
}

extension VideoSettings {
    func validate(path: String, target: Target) throws(ScenarioError) {
        if let codec {
            try check(target.allowedCodecs.contains(codec), "\(path).codec", target.refusal(of: codec) + "; use \"h264\"")
        }
        if let resolution { try Self.validate(resolution, path: "\(path).resolution") }
        if let fps { try check(IntegerLimits.fps.contains(fps), "\(path).fps", IntegerLimits.outside("\(fps)", IntegerLimits.fps)) }
        if let bitrate = bitrateKbps { try Self.validate(bitrateKbps: bitrate, path: "\(path).bitrate_kbps") }
        if let interval = keyframeIntervalS {
            try check(interval >= 0.1 && interval <= 3600, "\(path).keyframe_interval_s", "\(interval) must be from 0.1 to 3600 seconds")
        }
        if let file {
            let kind = URL(fileURLWithPath: file).pathExtension.lowercased()
            try check(["y4m", "ivf", "h264", "264"].contains(kind), "\(path).file", "\"\(file)\" is not a .y4m, .ivf or .h264 file")
        }
    }

    static func validate(_ resolution: Resolution, path: String) throws(ScenarioError) {
        let fits = (Resolution.smallest.width...Resolution.largest.width).contains(resolution.width)
            && (Resolution.smallest.height...Resolution.largest.height).contains(resolution.height)
        try check(fits && resolution.width % 2 == 0 && resolution.height % 2 == 0, path,
                  "\(resolution) must be even and from \(Resolution.smallest) to \(Resolution.largest)")
    }

    static func validate(bitrateKbps: Int, path: String) throws(ScenarioError) {
        try check(IntegerLimits.videoBitrateKbps.contains(bitrateKbps), path,
                  IntegerLimits.outside("\(bitrateKbps)", IntegerLimits.videoBitrateKbps))
    }
}

extension AudioSettings {
    func validate(path: String) throws(ScenarioError) {
        if let bitrate = bitrateKbps {
            try check(IntegerLimits.audioBitrateKbps.contains(bitrate), "\(path).bitrate_kbps",
                      IntegerLimits.outside("\(bitrate)", IntegerLimits.audioBitrateKbps) + " (Opus)")
        }
        if let channels { try check(channels == 1 || channels == 2, "\(path).channels", "\(channels) must be 1 or 2") }
    }
}

extension ICESettings {
    func validate(path: String) throws(ScenarioError) {
        for (index, server) in (servers ?? []).enumerated() {
            try check(!server.urls.isEmpty, "\(path).servers[\(index)].urls", "needs at least one url")
            for (urlIndex, url) in server.urls.enumerated() {
                let scheme = url.split(separator: ":").first.map(String.init) ?? ""
                try check(["stun", "turn", "turns"].contains(scheme), "\(path).servers[\(index)].urls[\(urlIndex)]",
                          "\"\(url)\" must start with stun:, turn: or turns:")
                if scheme != "stun" {
                    try check(server.username != nil && server.credential != nil, "\(path).servers[\(index)]",
                              "a TURN server needs username and credential")
                }
            }
        }
        if relayOnly == true {
            let hasTURN = (servers ?? []).contains { $0.urls.contains { !$0.hasPrefix("stun:") } }
            try check(hasTURN, "\(path).relay_only", "relay_only needs a turn: server in ice.servers")
        }
        for (index, address) in (localAddresses ?? []).enumerated() {
            try check(SocketAddress(host: address, port: 0) != nil, "\(path).local_addresses[\(index)]",
                      "\"\(address)\" is not an IP address")
        }
    }
}

extension Matrix {
    func validate(target: Target) throws(ScenarioError) {
        if let codecs = codec {
            try check(!codecs.isEmpty, "matrix.codec", "is empty; remove it or list values")
            for (index, codec) in codecs.enumerated() {
                try check(target.allowedCodecs.contains(codec), "matrix.codec[\(index)]", target.refusal(of: codec))
            }
        }
        if let resolutions = resolution {
            try check(!resolutions.isEmpty, "matrix.resolution", "is empty; remove it or list values")
            for (index, value) in resolutions.enumerated() { try VideoSettings.validate(value, path: "matrix.resolution[\(index)]") }
        }
        for (index, schedule) in (impairment ?? []).enumerated() {
            try schedule.validate(path: "matrix.impairment[\(index)]")
        }
        if let bitrates = bitrateKbps {
            try check(!bitrates.isEmpty, "matrix.bitrate_kbps", "is empty; remove it or list values")
            for (index, value) in bitrates.enumerated() { try VideoSettings.validate(bitrateKbps: value, path: "matrix.bitrate_kbps[\(index)]") }
        }
    }
}

extension ImpairmentSchedule {
    /// Checks every profile of a schedule, naming the change and field at fault.
    func validate(path: String) throws(ScenarioError) {
        for (index, change) in changes.enumerated() {
            do {
                try change.profile.validate()
            } catch {
                let at = changes.count > 1 ? "\(path)[\(index)].profile" : path
                throw ScenarioError(path: "\(at).\(error.field)", error.message)
            }
        }
    }
}
