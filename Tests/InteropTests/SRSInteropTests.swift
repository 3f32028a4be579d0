import EventLoop
import Foundation
import Net
import RTCBase
import Runtime
import SDP
import Signaling
import WebRTCTestKit
import XCTest

/// The SRS adapters against a real SRS named by `SRS_URL` (its HTTP API, e.g.
/// `http://127.0.0.1:1985`). SRS is not in Debian and CI cannot run Docker, so without
/// `SRS_URL` these skip with the reason; with it, an SRS that does not answer fails them.
final class SRSInteropTests: XCTestCase {
    private var api: Endpoint!
    private var loop: EventLoop!

    override func setUpWithError() throws {
        let cell = InteropRecorder.cell(self, target: "SRS", role: "publish + play negotiation through rtcswarm's SRS adapters (JSON API, WHIP)",
                                        codec: "signaling")
        guard let url = ProcessInfo.processInfo.environment["SRS_URL"], !url.isEmpty else {
            print("skipped: SRS_URL is not set (an SRS HTTP API such as http://127.0.0.1:1985; SRS runs in Docker, see TARGETS.md)")
            throw XCTSkip("SRS_URL is not set")
        }
        api = try Endpoint(parsing: url)
        cell.version = ServerVersionProbe.srs(api)
        loop = try EventLoop()
    }

    /// An H.264 + Opus offer from rtcswarm's builder, with the msid/ssrc SRS requires.
    private func offer(_ direction: MediaDirection, seed: UInt64) throws -> String {
        var generator = SeededGenerator(seed: seed)
        let transport = TransportDescription(
            iceUfrag: "srs\(seed)", icePwd: "rtcswarmpasswordrtcswarm\(seed)",
            fingerprint: Fingerprint(digest: Array(repeating: 0x5a, count: 32)),
            candidates: [Candidate(foundation: "1", priority: 2_130_706_431, address: "127.0.0.1", port: 41_000 + UInt16(seed), kind: .host)],
            sessionID: TransportDescription.randomSessionID(using: &generator))
        let sends = direction == .sendonly
        let audio = SenderDescription(ssrc: 5000 + UInt32(seed), cname: "rtcswarm", streamID: "s", trackID: "a")
        let video = SenderDescription(ssrc: 6000 + UInt32(seed), cname: "rtcswarm", streamID: "s", trackID: "v")
        return try SDPOffer(transceivers: [
            TransceiverDescription(mid: "0", kind: .audio, direction: direction, codecs: [.opus()], sender: sends ? audio : nil),
            TransceiverDescription(mid: "1", kind: .video, direction: direction, codecs: [.h264()], sender: sends ? video : nil),
        ], transport: transport).build().serialize()
    }

    /// Runs `setup` until its answer (or failure) and returns every event.
    private func negotiate<Setup: CallSetup>(_ setup: Setup) -> (CallSetupHost<Setup>, [CallSetupEvent]) {
        var events: [CallSetupEvent] = []
        let host = CallSetupHost(loop: loop, setup: setup)
        host.onEvent = { events.append($0) }
        host.start()
        let done = loop.run(until: {
            events.contains { if case .answer = $0 { true } else if case .failed = $0 { true } else { false } }
        }, timeout: .seconds(10))
        XCTAssertTrue(done, "SRS at \(api.description) did not answer in 10 s")
        return (host, events)
    }

    func testPublishAndPlayThroughTheJSONAPI() throws {
        let stream = "rtcswarm-\(UInt32.random(in: 1...999_999))"
        let url = "webrtc://\(api.host)/live/\(stream)"
        let (_, published) = negotiate(SRSCallSetup(api: api, streamURL: url, mode: .publish, offer: try offer(.sendonly, seed: 1), eip: "127.0.0.1"))
        let answer = try XCTUnwrap(published.lazy.compactMap { if case .answer(let sdp) = $0 { sdp } else { nil } }.first, "\(published)")
        XCTAssertEqual(try SessionDescription.parse(answer).media.count, 2)
        let (_, played) = negotiate(SRSCallSetup(api: api, streamURL: url, mode: .play, offer: try offer(.recvonly, seed: 2), eip: "127.0.0.1"))
        XCTAssertTrue(played.contains { if case .answer = $0 { true } else { false } }, "\(played)")
    }

    func testWhipPublishAndDelete() throws {
        let stream = "rtcswarm-whip-\(UInt32.random(in: 1...999_999))"
        let (host, events) = negotiate(WHIPCallSetup.srs(kind: .whip, api: api, app: "live", stream: stream, offer: try offer(.sendonly, seed: 3), eip: "127.0.0.1"))
        XCTAssertTrue(events.contains { if case .answer = $0 { true } else { false } }, "\(events)")
        var closed = false
        host.onEvent = { if $0 == .closed { closed = true } }
        host.hangUp()
        XCTAssertTrue(loop.run(until: { closed }, timeout: .seconds(10)), "DELETE got no answer")
    }
}
