import Net
import SDP
import Signaling
import WebRTCTestKit
import XCTest

/// The SRS adapters against a real SRS named by `SRS_URL` (its HTTP API, e.g.
/// `http://127.0.0.1:1985`): publish and play through the JSON API, and WHIP publish,
/// WHEP play, trickle and DELETE. Without `SRS_URL` these skip with the reason (a failure
/// when `.ci/run` provided SRS).
final class SRSInteropTests: XCTestCase {
    private var srs: SRSNegotiation!

    override func setUpWithError() throws {
        srs = try SRSNegotiation(for: self, role: "publish + play negotiation through rtcswarm's SRS adapters (JSON API, WHIP/WHEP)")
    }

    func testPublishAndPlayThroughTheJSONAPI() throws {
        let stream = SRSNegotiation.freshStream("api")
        let (_, published) = srs.negotiate(srs.rtc(.publish, stream: stream, offer: try srs.offer(.sendonly, seed: 1)))
        let answer = try XCTUnwrap(published.lazy.compactMap(\.answerSDP).first, "\(published)")
        XCTAssertEqual(try SessionDescription.parse(answer).media.count, 2)
        let (_, played) = srs.negotiate(srs.rtc(.play, stream: stream, offer: try srs.offer(.recvonly, seed: 2)))
        XCTAssertTrue(played.contains(where: \.isAnswer), "\(played)")
    }

    /// WHIP publish, a trickled candidate, WHEP play, and DELETE of both sessions. SRS's
    /// answer to the trickle PATCH is reported as the adapter's notice, in SRS's words.
    func testWhipPublishTrickleWhepPlayAndDelete() throws {
        let stream = SRSNegotiation.freshStream("whip")
        let (publisher, published) = srs.negotiate(WHIPCallSetup.srs(kind: .whip, api: srs.api, app: "live", stream: stream,
                                                                     offer: try srs.offer(.sendonly, seed: 3), eip: "127.0.0.1"))
        XCTAssertTrue(published.contains(where: \.isAnswer), "\(published)")
        var notices: [String] = []
        publisher.onEvent = { if let text = $0.noticeText { notices.append(text) } }
        publisher.trickle(TrickleCandidate(mid: "0", mLineIndex: 0, candidate: "candidate:2 1 udp 2130706430 127.0.0.1 41099 typ host"))
        _ = srs.loop.run(until: { !notices.isEmpty }, timeout: .seconds(3))
        print("srs: WHIP trickle PATCH: \(notices.first ?? "no notice: SRS answered 2xx")")

        let (player, played) = srs.negotiate(WHIPCallSetup.srs(kind: .whep, api: srs.api, app: "live", stream: stream,
                                                               offer: try srs.offer(.recvonly, seed: 4), eip: "127.0.0.1"))
        XCTAssertTrue(played.contains(where: \.isAnswer), "\(played)")
        for host in [player, publisher] {
            var closed = false
            host.onEvent = { if $0 == .closed { closed = true } }
            host.hangUp()
            XCTAssertTrue(srs.loop.run(until: { closed }, timeout: .seconds(10)), "DELETE got no answer")
        }
    }
}
