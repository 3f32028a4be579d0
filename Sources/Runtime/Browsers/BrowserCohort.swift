import EventLoop
import Foundation
import Report
import RTCBase
import RTP
import Scenario
import Signaling

/// The Chromium peers of a cell (`groups[].client: "chromium"`): one headless Chromium per
/// group on a `BrowserCohortPage` written to the report folder, started before the workers
/// and stopped after its last peer reported; each peer's result line in the browser's log
/// becomes its `PeerRecord` (`client: "chromium"`), and a planned peer without one is
/// recorded as failed, so every peer that started is in the report.
///
/// Chromium gathers every interface as ICE candidates: run rtcswarm in a network namespace
/// with only `lo` (`unshare --net`) to keep it on loopback, as for `partner: "chromium"`.
final class BrowserCohort {
    private struct Browser {
        let group: Int
        let peers: [ExecutionPlan.Peer]
        let chromium: ChromiumPartner
        let log: URL
    }

    private var browsers: [Browser] = []
    private let runStartEpochMs: Double
    private let scenario: Scenario

    /// How long after the last planned stop the browsers may take to report.
    static let reportGrace: Duration = .seconds(10)

    /// Starts a browser for each Chromium group of `plan`; none when it has no such peer.
    /// A browser that cannot start stops the ones already started.
    init(scenario: Scenario, plan: ExecutionPlan, target: ResolvedTarget, folder: URL, cellPrefix: String,
         runStartEpochMs: Double) throws(TargetError) {
        self.scenario = scenario
        self.runStartEpochMs = runStartEpochMs
        for group in Set(plan.browserPeers.map(\.group)).sorted() {
            let peers = plan.browserPeers.filter { $0.group == group }
            do throws(TargetError) {
                let configuration = try Self.configuration(peers, group: group, scenario: scenario, target: target, runStartEpochMs: runStartEpochMs)
                let page = folder.appendingPathComponent("browser-\(cellPrefix)g\(group).html")
                do {
                    try BrowserCohortPage.html(configuration).write(to: page, atomically: true, encoding: .utf8)
                } catch {
                    throw TargetError("cannot write Chromium's page \(page.path): \(error.localizedDescription)")
                }
                let log = folder.appendingPathComponent("chromium-\(cellPrefix)g\(group).log")
                let chromium = try ChromiumPartner(page: page.absoluteString, fps: configuration.video?.fps ?? VideoSettings.defaultFps,
                                                   log: log, webSecurity: false)
                browsers.append(Browser(group: group, peers: peers, chromium: chromium, log: log))
            } catch {
                stop()
                throw error
            }
        }
    }

    var isEmpty: Bool { browsers.isEmpty }

    /// Every browser has written a result for each of its peers.
    var finished: Bool { browsers.allSatisfy { results(of: $0).count >= $0.peers.count } }

    /// Waits on `loop` (which goes on serving its other sockets) until every browser
    /// reported or `deadline` passed.
    func awaitResults(loop: EventLoop, until deadline: Instant) {
        while !finished && loop.now() < deadline { loop.run(until: { false }, timeout: .milliseconds(200)) }
    }

    /// One record per planned peer.
    func records() -> [PeerRecord] {
        browsers.flatMap { browser -> [PeerRecord] in
            let results = results(of: browser)
            return browser.peers.map { peer in
                let role = scenario.groups[peer.group].role
                guard let result = results[peer.id] else {
                    var record = PeerRecord(id: peer.id, group: peer.group, role: role.rawValue, startedAtMs: Double(peer.startMs),
                                            endedAtMs: Double(peer.stopMs), outcome: .failed, failedPhase: "signaling",
                                            failureReason: "Chromium wrote no result for this peer; see \(browser.log.lastPathComponent)")
                    record.client = PeerGroup.Client.chromium.rawValue
                    return record
                }
                return result.record(id: peer.id, group: peer.group, role: role, video: scenario.groups[peer.group].video(on: scenario.target) != nil,
                                     runStartEpochMs: runStartEpochMs)
            }
        }
    }

    func stop() { browsers.forEach { $0.chromium.stop() } }

    private func results(of browser: Browser) -> [String: BrowserPeerResult] {
        guard let text = try? String(contentsOf: browser.log, encoding: .utf8) else { return [:] }
        var results: [String: BrowserPeerResult] = [:]
        for line in text.split(separator: "\n") {
            guard let result = BrowserPeerResult(logLine: line) else { continue }
            results[result.id] = result
        }
        return results
    }

    /// The plugin messages a Chromium peer sends, as rtcswarm's `JanusSession` would: the
    /// EchoTest body with the offer; a VideoRoom publisher creates its named room (427, it
    /// exists, is fine; destroyed at hang-up if it made it), joins as its feed and publishes
    /// the offer; a subscriber joins (Janus replies with its offer) and starts with the answer.
    static func janusSteps(_ plugin: JanusPlugin, group index: Int) throws(TargetError) -> [BrowserCohortPage.Configuration.JanusStep] {
        typealias Step = BrowserCohortPage.Configuration.JanusStep
        switch plugin {
        case .echoTest(let codec):
            return [Step(body: JanusPlugin.echoBody(videoCodec: codec).serialized, jsep: "offer")]
        case .videoRoomPublisher(let room, let options, let display, _):
            guard let room, let join = plugin.joinBody(room: room) else {
                throw TargetError("groups[\(index)]: Chromium publishers on Janus's VideoRoom need target.janus.room_id")  // validate() says so first
            }
            return [Step(body: JanusPlugin.createRoomBody(room: room, options: options).serialized, allowedError: 427,
                         undo: JanusPlugin.destroyRoomBody(room: room).serialized),
                    Step(body: join.serialized),
                    Step(body: JanusPlugin.publishBody(display: display).serialized, jsep: "offer")]
        case .videoRoomSubscriber(let room, _):
            return [Step(body: plugin.joinBody(room: room)?.serialized ?? "{}"), Step(body: JanusPlugin.startBody.serialized, jsep: "answer")]
        }
    }

    /// The page's plan: each peer's request (the `OfferRequest` rtcswarm's own peers of
    /// the group would make, or on Janus the plugin and EchoTest body they would send) and
    /// wall-clock start and stop, the camera, the codec to put first.
    static func configuration(_ peers: [ExecutionPlan.Peer], group index: Int, scenario: Scenario, target: ResolvedTarget,
                              runStartEpochMs: Double) throws(TargetError) -> BrowserCohortPage.Configuration {
        let group = scenario.groups[index]
        var video: BrowserCohortPage.Configuration.Video?
        var videoCodec: Codec?
        if case .video(let codec, let size, let fps, _, _, _)? = try WorkerRun.videoTrack(group, target: scenario.target, groupIndex: index) {
            video = .init(width: size.width, height: size.height, fps: fps, codec: "video/\(codec.rawValue)")
            videoCodec = codec
        }
        let requests = try peers.map { peer throws(TargetError) -> BrowserCohortPage.Configuration.Peer in
            var request = BrowserCohortPage.Configuration.Peer(id: peer.id, role: group.role.rawValue, api: "", url: "",
                                                               startAt: runStartEpochMs + Double(peer.startMs),
                                                               stopAt: runStartEpochMs + Double(peer.stopMs))
            if scenario.target.kind == .janus {
                let plugin = try JanusPlugin.forPeer(target: scenario.target, role: group.role, stream: peer.stream ?? StreamSettings.defaultName,
                                                     display: peer.id, video: videoCodec, groupIndex: index)
                (request.api, request.url, request.janusPlugin) = ("janus", target.endpoint.description, plugin.packageName)
                request.janusSteps = try janusSteps(plugin, group: index)
                return request
            }
            let offer = try OfferRequest.maker(target: scenario.target, role: group.role, stream: peer.stream ?? StreamSettings.defaultName,
                                               endpoint: target.endpoint, video: videoCodec)("")
            switch offer {
            case .srsAPI(let setup):
                (request.api, request.url) = ("srs", setup.apiEndpoint.description)
                request.srsApi = setup.body["api"]?.stringValue
                request.streamUrl = setup.body["streamurl"]?.stringValue
            case .whip(let setup):
                (request.api, request.url, request.token) = (setup.kind == .whip ? "whip" : "whep", setup.endpoint.description, setup.token)
            }
            return request
        }
        return .init(peers: requests, video: video, audio: WorkerRun.audioTrack(group) != nil)
    }
}
