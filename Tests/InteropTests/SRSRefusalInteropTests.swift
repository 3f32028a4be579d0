import Signaling
import WebRTCTestKit
import XCTest

/// What SRS 7 says no to, and that rtcswarm's failure reason quotes it (PROTOCOLS.md
/// section 1: every RTC API error is HTTP 200 with `{"code":400}`; an offer without
/// msid/ssrc gets `code 0` and an answer with no media sections).
final class SRSRefusalInteropTests: XCTestCase {
    private var srs: SRSNegotiation!

    override func setUpWithError() throws {
        srs = try SRSNegotiation(for: self, role: "refusals quoted (VP8 publish, busy stream, no msid/ssrc)")
    }

    private func refusal(_ setup: SRSCallSetup, file: StaticString = #filePath, line: UInt = #line) throws -> CallSetupError {
        let (_, events) = srs.negotiate(setup, file: file, line: line)
        return try XCTUnwrap(events.lazy.compactMap(\.failure).first, "SRS accepted: \(events)", file: file, line: line)
    }

    func testAVP8PublishIsRefusedInSRSsWords() throws {
        let error = try refusal(srs.rtc(.publish, stream: SRSNegotiation.freshStream("vp8"), offer: try srs.offer(.sendonly, video: .vp8(), seed: 11)))
        XCTAssertEqual(error.code, .refused)
        XCTAssertEqual(error.message, #"SRS answered code 400: {"code":400}"#)
    }

    func testASecondPublisherOfABusyStreamIsRefused() throws {
        let stream = SRSNegotiation.freshStream("busy")
        let (_, first) = srs.negotiate(srs.rtc(.publish, stream: stream, offer: try srs.offer(.sendonly, seed: 12)))
        XCTAssertTrue(first.contains(where: \.isAnswer), "\(first)")
        let error = try refusal(srs.rtc(.publish, stream: stream, offer: try srs.offer(.sendonly, seed: 13)))
        XCTAssertEqual(error.code, .refused)
        XCTAssertEqual(error.message, #"SRS answered code 400: {"code":400}"#)
    }

    /// The code-0 trap: SRS "accepts" and answers an SDP with no media sections.
    func testAnOfferWithoutMsidAndSsrcFailsOnTheEmptyAnswer() throws {
        let error = try refusal(srs.rtc(.publish, stream: SRSNegotiation.freshStream("nossrc"), offer: try srs.offer(.sendonly, senders: false, seed: 14)))
        XCTAssertEqual(error.code, .badAnswer)
        XCTAssertTrue(error.message.contains("no media sections"), error.message)
    }
}
