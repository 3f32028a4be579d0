import RTCBase
import Foundation
import Scenario
import XCTest

final class ScenarioValidationTests: XCTestCase {
    static let base = """
    {
      name: "t", duration_s: 30,
      target: { kind: "builtin-room" },
      groups: [
        { role: "pair", count: 4, media: { video: { codec: "vp8", resolution: "640x360" } } },
        { role: "member", count: 10, arrival: { rate_per_s: 100 } },
      ],
      thresholds: ["setup_ms.p95 < 500"],
    }
    """

    private func message(_ text: String = base, set overrides: [String] = [], environment: [String: String] = [:]) -> String? {
        do {
            _ = try ScenarioLoader.load(text: text, environment: environment, overrides: overrides)
            return nil
        } catch {
            return error.description
        }
    }

    func testBaseScenarioIsValid() throws {
        let loaded = try ScenarioLoader.load(text: Self.base)
        XCTAssertEqual(loaded.scenario.groups.count, 2)
        XCTAssertEqual(loaded.scenario.groups[0].media?.video?.resolution, Resolution(width: 640, height: 360))
        XCTAssertEqual(loaded.scenario.thresholds?.first?.expr, "setup_ms.p95 < 500")
        XCTAssertEqual(loaded.scenario.effectiveSeed, 1)
    }

    func testEachKindOfMistakeGivesOneMessageNamingTheField() {
        let cases: [([String], String)] = [
            (["groups[0].media.video.codec=vp10"], "groups[0].media.video.codec: \"vp10\" is not one of vp8, vp9, h264, h265, av1 (did you mean \"vp8\"?)"),
            (["groups[0].count=ten"], "groups[0].count: expected a whole number, found \"ten\""),
            (["groups[0].count=0"], "groups[0].count: 0 must be from 1 to 1000000"),
            (["groups[0].count=2.5"], "groups[0].count: expected a whole number, found 2.5"),
            (["duration_s=-1"], "duration_s: -1 must be more than 0 and at most 604800 (a week)"),
            (["groups[0].media.video.resolution=640by360"], "groups[0].media.video.resolution: \"640by360\" is not a resolution; write WIDTHxHEIGHT, e.g. \"1280x720\""),
            (["groups[0].media.video.resolution=7680x4320"], "groups[0].media.video.resolution: 7680x4320 must be even and from 160x90 to 3840x2160"),
            (["groups[0].media.video.fps=500"], "groups[0].media.video.fps: 500 must be from 1 to 120"),
            (["run.wakeup_batching_ms=50"], "run.wakeup_batching_ms: 50 must be from 0 to 20"),
            (["run.metrics_listen=localhost"], "run.metrics_listen: \"localhost\" must be ADDRESS:PORT such as 127.0.0.1:9464"),
            (["groups[0].media.video.keyframe_interval_s=0"], "groups[0].media.video.keyframe_interval_s: 0.0 must be from 0.1 to 3600 seconds"),
            (["groups[0].reconnect.attempts=2"],
             "groups[0].reconnect: reconnect is for publisher, player and echo peers (a server's clients); \"pair\" peers do not reconnect"),
            (["groups[0].role=publisher"], "groups[0].role: \"publisher\" does not work with a builtin-room target; use pair or member"),
            (["target.kind=srs"], "target.url: srs needs a url, e.g. \"${SRS_URL:-http://127.0.0.1:1985}\""),
            (["target.kind=srs", "target.url=http://127.0.0.1:1985", "groups[0].role=publisher", "groups[1].role=player"],
             "groups[0].media.video.codec: \"vp8\" is not accepted by srs (video h264, h265, av1 with Opus); use \"h264\""),
            (["target.kind=janus", "target.url=http://127.0.0.1:8088/janus", "target.janus={plugin: 'echotest'}",
              "groups[0].role=echo", "groups[1].role=echo", "groups[0].media.video.codec=h265"],
             "groups[0].media.video.codec: \"h265\" is not accepted by janus (video vp8, vp9, h264 with Opus); use \"h264\""),
            (["target.kind=janus", "target.url=http://127.0.0.1:8088/janus", "target.janus={plugin: 'echotest'}",
              "groups[0].role=echo", "groups[1].role=echo", "groups[0].media.video.codec=av1"],
             "groups[0].media.video.codec: \"av1\" is not accepted by janus (video vp8, vp9, h264 with Opus); use \"h264\""),
            (["target.kind=janus", "target.url=http://127.0.0.1:8088/janus", "target.janus={plugin: 'videoroom'}",
              "groups[0].role=publisher", "groups[1].role=player"],
             "target.janus.room_id: Janus VideoRoom players (groups[1]) subscribe in a room their publishers join; set room_id to a room "
             + "in Janus's videoroom configuration (Debian's sample has 1234)"),
            (["target.kind=janus", "target.url=http://127.0.0.1:8088/janus", "target.janus={plugin: 'echotest', admin_url: '127.0.0.1:7088'}",
              "groups[0].role=echo", "groups[1].role=echo"],
             "target.janus.admin_url: \"127.0.0.1:7088\" must start with http:// or https:// (Janus's admin API, e.g. http://127.0.0.1:7088/admin)"),
            (["target.kind=room", "target.url=127.0.0.1:3000"], "target.url: \"127.0.0.1:3000\" must start with http:// or https:// or ws:// or wss://"),
            (["target.url=http://x"], "target.url: builtin-room starts its own server on loopback; remove url or use kind \"room\""),
            (["groups[1].arrival.stages=[{duration_s: 5, target: 3}]"], "groups[1].arrival: give either rate_per_s or stages, not both and not neither"),
            (["groups[1].arrival={stages: [{duration_s: 5, target: 30}]}"], "groups[1].arrival.stages[0].target: 30 must be from 0 to the group's count (10)"),
            (["groups[1].start_s=2", "groups[1].arrival={stages: [{duration_s: 20, target: 10}, {duration_s: 8.5, target: 10}]}"],
             "groups[1].arrival.stages[1].duration_s: 8.5 makes stage 2 end at 30.5 s (the group's start_s 2 plus the stages so far), "
             + "after the run's duration_s (30); shorten the stages or lengthen duration_s"),
            (["groups[1].media={audio: {}}"], "groups[1].media: members exchange signaling only; remove media or use role \"pair\""),
            (["thresholds[0]=setup_ms.p95 <"], "thresholds[0]: threshold 'setup_ms.p95 <': expected a number after '<', got the end"),
            (["groups[0].ice={relay_only: true}"], "groups[0].ice.relay_only: relay_only needs a turn: server in ice.servers"),
            (["groups[0].ice={servers: [{urls: ['turn:127.0.0.1:3478']}]}"], "groups[0].ice.servers[0]: a TURN server needs username and credential"),
            (["groups[0].ice={local_addresses: ['localhost']}"], "groups[0].ice.local_addresses[0]: \"localhost\" is not an IP address"),
            (["groups[0].impairment={receive: {loss_pct: 120}}"], "groups[0].impairment.receive.loss_pct: must be within 0.0...100.0, got 120.0"),
            (["groups[1].partner=chromium"], "groups[1].partner: \"chromium\" answers calls: it needs role \"pair\""),
            (["groups[0].partner=chromium", "groups[0].count=17"], "groups[0].count: 17 calls with one Chromium page: at most 16"),
            (["groups[0].partner=chromium", "target.kind=room", "target.url=ws://127.0.0.1:3000"],
             "groups[0].partner: \"chromium\" loads its page from the built-in room server: use target kind \"builtin-room\""),
            (["groups[0].partner=firefox"], "groups[0].partner: \"firefox\" is not one of rtcswarm, chromium, external"),
            (["groups[0].partner=external"],
             "groups[0].partner: \"external\" clients join rooms on a server you run or connect to rtcswarm's socket: use target kind \"room\" or \"tcp-p2p\" with its url"),
            (["groups[0].impairment={send: 'wifi'}"], "groups[0].impairment.send: unknown impairment preset 'wifi'; allowed: clean, 3g, lossy-wifi, congested"),
            (["target.whep_url=http://127.0.0.1:8080/whep/s"], "target.whep_url: only for kind \"whip\" (its players play through WHEP); remove it"),
            (["target={kind: 'whip', url: 'http://127.0.0.1:8080/whip/s', whep_url: 'rtsp://x'}", "groups=[{role: 'publisher', count: 1}]"],
             "target.whep_url: \"rtsp://x\" must start with http:// or https://"),
            (["target={kind: 'whip', url: 'http://127.0.0.1:8080/whip/s'}", "groups=[{role: 'player', count: 1}]"],
             "groups[0].role: \"player\" does not work with a whip target; use publisher"),
            (["groups[0].media={video: {rtx: 'sometimes'}}"], "groups[0].media.video.rtx: \"sometimes\" is not one of auto, on, off"),
            (["groups[0].ice={profile: 'firefox'}"], "groups[0].ice.profile: \"firefox\" is not one of libwebrtc, rfc8445"),
            (["target={kind: 'tcp-p2p', url: 'tcp://127.0.0.1'}", "groups=[{role: 'pair', count: 1}]"],
             "target.url: \"tcp://127.0.0.1\" needs a port: call i's caller listens on that port + i"),
            (["target={kind: 'tcp-p2p', url: 'http://127.0.0.1:7000'}", "groups=[{role: 'pair', count: 1}]"],
             "target.url: \"http://127.0.0.1:7000\" must start with tcp://"),
            (["target={kind: 'tcp-p2p', url: 'tcp://127.0.0.1:7000'}", "groups=[{role: 'member', count: 2}]"],
             "groups[0].role: \"member\" does not work with a tcp-p2p target; use pair"),
        ]
        for (overrides, expected) in cases {
            XCTAssertEqual(message(set: overrides), expected, "\(overrides)")
        }
    }

    /// `ice.profile` picks whose ICE timers a group follows; unset means libwebrtc's.
    func testIceProfileIsReadPerGroup() throws {
        let loaded = try ScenarioLoader.load(text: Self.base, overrides: ["groups[0].ice={profile: 'rfc8445'}"])
        XCTAssertEqual(loaded.scenario.groups[0].ice?.profile, .rfc8445)
        XCTAssertNil(try ScenarioLoader.load(text: Self.base).scenario.groups[0].ice?.profile)
    }

    /// With whep_url a WHIP target takes players too, and they play from that URL.
    func testWhipTargetWithWhepURLTakesPublishersAndPlayers() throws {
        let loaded = try ScenarioLoader.load(text: Self.base, overrides: [
            "target={kind: 'whip', url: 'http://127.0.0.1:8080/whip/s', whep_url: 'http://127.0.0.1:8080/whep/s'}",
            "groups=[{role: 'publisher', count: 1}, {role: 'player', count: 3, media: {video: {rtx: 'off'}}}]",
        ])
        XCTAssertEqual(loaded.scenario.target.whepUrl, "http://127.0.0.1:8080/whep/s")
        XCTAssertEqual(loaded.scenario.target.allowedRoles, [.publisher, .player])
        XCTAssertEqual(loaded.scenario.groups[1].media?.video?.rtx, .off)
    }

    /// Issue 21 item 4: every cell is also judged on `failed_peers == 0` and
    /// `connected_peers > 0`, each unless a threshold of the scenario names that figure.
    func testTheVerdictImpliesNoFailedPeerAndSomeConnectedPeerUnlessAThresholdSaysOtherwise() throws {
        func judged(_ thresholds: String) throws -> [String] {
            try ScenarioLoader.load(text: Self.base, overrides: ["thresholds=\(thresholds)"]).scenario.judgedThresholds
                .map { $0.spec.expr + ($0.implied ? " (implied)" : "") }
        }
        XCTAssertEqual(try judged("[]"), ["failed_peers == 0 (implied)", "connected_peers > 0 (implied)"])
        XCTAssertEqual(try judged("['setup_ms.p95 < 500']"),
                       ["setup_ms.p95 < 500", "failed_peers == 0 (implied)", "connected_peers > 0 (implied)"])
        XCTAssertEqual(try judged("['failed_peers < 10']"), ["failed_peers < 10", "connected_peers > 0 (implied)"])
        XCTAssertEqual(try judged("['connected_peers >= 0', 'failed_peers <= 3']"), ["connected_peers >= 0", "failed_peers <= 3"])
    }

    func testUnknownKeysAreReportedWithASuggestion() {
        let typo = Self.base.replacingOccurrences(of: "count: 4", with: "cuont: 4")
        XCTAssertEqual(message(typo), "groups[0].cuont: unknown key; did you mean \"count\"?")
        let extra = Self.base.replacingOccurrences(of: "duration_s: 30,", with: "duration_s: 30, colour: 'red',")
        XCTAssertEqual(message(extra)?.hasPrefix("colour: unknown key (allowed here: "), true, message(extra) ?? "")
        let nested = Self.base.replacingOccurrences(of: "resolution: \"640x360\"", with: "resolution: \"640x360\", bitrate: 5")
        XCTAssertEqual(message(nested)?.hasPrefix("groups[0].media.video.bitrate: unknown key; did you mean \"bitrate_kbps\"?"), true,
                       message(nested) ?? "")
    }

    func testMissingRequiredKeyAndBadSyntaxAndMissingVariable() {
        XCTAssertEqual(message(Self.base.replacingOccurrences(of: "name: \"t\", ", with: "")), "missing required key \"name\"")
        XCTAssertEqual(message("{ name: 't', }}"), "not valid JSON5: line 1, column 15: unexpected '}' after the document")
        XCTAssertEqual(message(Self.base.replacingOccurrences(of: "duration_s: 30", with: "duration_s: ${DUR}")),
                       "line 2: ${DUR} is not set and has no default; set it or write ${DUR:-default}")
        XCTAssertNil(message(Self.base.replacingOccurrences(of: "duration_s: 30", with: "duration_s: ${DUR}"), environment: ["DUR": "12"]),
                     "numbers can come from the environment")
    }

    func testOverridesChangeFieldsAndReportBadPaths() throws {
        let loaded = try ScenarioLoader.load(text: Self.base, overrides: ["groups[0].count=50", "seed=9", "groups[0].name=calls"])
        XCTAssertEqual(loaded.scenario.groups[0].count, 50)
        XCTAssertEqual(loaded.scenario.seed, 9)
        XCTAssertEqual(loaded.scenario.groups[0].name, "calls")
        XCTAssertEqual(message(set: ["groups[5].count=1"]), "groups[5].count: index 5 is past the end of a list of 2")
        XCTAssertEqual(message(set: ["groups.count"]), "--set groups.count: expected PATH=VALUE, e.g. --set groups[0].count=50")
        XCTAssertEqual(message(set: ["name.first=x"]), "name.first: --set goes through \"first\" but that part of the file is a string, not an object")
    }

    /// The scenario name becomes a folder under Reports/: a name that would climb out
    /// (`../../etc`), nest folders (`a/b`) or hide one (`.x`) is refused, saying what is allowed.
    func testANameThatIsNotASafeFolderNameIsRefused() {
        for name in ["../../etc", "a/b", ".hidden", "two words"] {
            XCTAssertEqual(message(set: ["name=\(name)"]).map { $0.hasPrefix("name: \"\(name)\" names the report folder: use letters, digits, -, _ and . only, not starting with a dot") },
                           true, name)
        }
        XCTAssertNil(message(set: ["name=rooms-stress_2.v1"]))
        XCTAssertEqual(Scenario.folderSafeName("../../etc"), "-..-etc")
        XCTAssertEqual(Scenario.folderSafeName("a/b c"), "a-b-c")
        XCTAssertEqual(Scenario.folderSafeName("..."), "run")
    }

    /// A number too big for any integer names the field's own range, not Int64's.
    func testAHugeCountNamesTheFieldsRange() {
        XCTAssertEqual(message(set: ["groups[0].count=1e23"]), "groups[0].count: 1e+23 must be from 1 to 1000000")
        XCTAssertEqual(message(set: ["run.workers=1e30"]), "run.workers: 1e+30 must be from 1 to 256")
        XCTAssertEqual(message(set: ["groups[0].media.video.fps=-1e20"]), "groups[0].media.video.fps: -1e+20 must be from 1 to 120")
    }

    /// A threshold that no value of its figure can meet fails every run: a scenario mistake.
    func testAThresholdThatCanNeverHoldIsRefused() {
        XCTAssertEqual(message(set: ["thresholds[0]=setup_ms.p95 < -1"]),
                       "thresholds[0]: \"setup_ms.p95 < -1\" can never hold: setup_ms is never below 0")
        XCTAssertEqual(message(set: ["thresholds[0]=loss_pct.max > 100"]),
                       "thresholds[0]: \"loss_pct.max > 100\" can never hold: video.loss_pct is never below 0 nor above 100")
        XCTAssertEqual(message(set: ["thresholds[0]=failed_peers == -2"]),
                       "thresholds[0]: \"failed_peers == -2\" can never hold: failed_peers is never below 0")
        for possible in ["setup_ms.p95 < 500", "failed_peers == 0", "loss_pct.max <= 100", "resolution_survival.min == 100", "fps.mean != 0"] {
            XCTAssertNil(message(set: ["thresholds[0]=\(possible)"]), possible)
        }
    }

    /// A media file is checked by `validate`, not found missing by each worker later; a
    /// scenario file that is not there is one line, not a Foundation error dump.
    func testAMissingMediaFileOrScenarioFileIsOneLineNamingIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("s.json5")
        try Data(Self.base.utf8).write(to: file)
        let missing = folder.appendingPathComponent("clip.y4m").path
        XCTAssertThrowsError(try ScenarioLoader.load(file: file.path, overrides: ["groups[0].media.video.file=\(missing)"])) { error in
            XCTAssertEqual((error as? ScenarioError)?.path, "groups[0].media.video.file")
            XCTAssertTrue("\(error)".hasPrefix("groups[0].media.video.file: \"\(missing)\" does not exist (paths are relative to"), "\(error)")
        }
        try Data("YUV4MPEG2 W16 H16 F30:1\n".utf8).write(to: URL(fileURLWithPath: missing))
        XCTAssertNoThrow(try ScenarioLoader.load(file: file.path, overrides: ["groups[0].media.video.file=\(missing)"]))
        XCTAssertThrowsError(try ScenarioLoader.load(file: folder.appendingPathComponent("nope.json5").path)) { error in
            XCTAssertEqual("\(error)", "cannot read \(folder.path)/nope.json5: no such file")
        }
    }

    /// The per-address message limit is the built-in server's to set, and positive.
    func testTheBuiltInServersPerAddressRateIsCheckedAndOnlyForIt() throws {
        XCTAssertNil(message(set: ["target.room.max_rate_per_address=5000"]))
        XCTAssertEqual(try ScenarioLoader.load(text: Self.base, overrides: ["target.room.max_rate_per_address=5000"]).scenario.target.room?.maxRatePerAddress, 5000)
        XCTAssertEqual(message(set: ["target.room.max_rate_per_address=0"]),
                       "target.room.max_rate_per_address: 0 must be more than 0 and at most 10000000")
        XCTAssertEqual(message(set: ["target.kind=room", "target.url=http://127.0.0.1:3000", "target.room.max_rate_per_address=10"]),
                       "target.room.max_rate_per_address: only the built-in room server's limits can be set")
    }
}
