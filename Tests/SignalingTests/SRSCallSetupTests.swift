import Net
import RTCBase
import SDP
import Signaling
import WebRTCTestKit
import XCTest

/// The SRS JSON API against what SRS 7.0.18 sent (Tests/Fixtures/srs).
final class SRSCallSetupTests: XCTestCase {
    private let api = Endpoint(scheme: .http, host: "127.0.0.1", port: 1985)

    /// An adapter built from a captured request body, so the request can be compared.
    private func setup(fromRequest name: String, mode: SRSCallSetup.Mode, eip: String? = nil, codec: String? = nil) throws
        -> (SRSCallSetup, JSONValue)
    {
        let captured = try JSONValue(parsing: Fixtures.text("srs/\(name)"))
        let setup = SRSCallSetup(api: api, streamURL: try XCTUnwrap(captured["streamurl"]?.stringValue), mode: mode,
                                 offer: try XCTUnwrap(captured["sdp"]?.stringValue), eip: eip, codec: codec,
                                 tid: try XCTUnwrap(captured["tid"]?.stringValue))
        return (setup, captured)
    }

    func testPublishSendsSRSsOwnBodyAndYieldsTheAnswerWithTwoMediaSections() throws {
        var (setup, captured) = try setup(fromRequest: "publish.request.json", mode: .publish)
        setup.start(now: Exchange.start)
        let request = try Exchange.next(&setup)
        XCTAssertEqual(request.request.method, .post)
        XCTAssertEqual(request.request.target, "/rtc/v1/publish/")
        XCTAssertEqual(request.request.headers["Host"], "127.0.0.1:1985")
        XCTAssertEqual(request.request.headers["Content-Type"], "application/json")
        // Same members in the same order as srs.sdk.js: api, tid, streamurl, clientip, sdp.
        XCTAssertEqual(try JSONValue(parsing: request.request.body), captured)
        XCTAssertNil(setup.pollRequest(), "one request only")

        try Exchange.answer(request, with: Fixtures.bytes("srs/publish.response.http"), to: &setup)
        let events = Exchange.events(&setup)
        XCTAssertEqual(events.count, 1)
        let answer = try SessionDescription.parse(try XCTUnwrap(Exchange.answerSDP(events)))
        XCTAssertEqual(answer.media.count, 2)
        XCTAssertTrue(answer.iceLite)
        // sessionid is "<SRS ufrag>:<our ufrag>".
        let offer = try SessionDescription.parse(try XCTUnwrap(captured["sdp"]?.stringValue))
        let ourUfrag = try XCTUnwrap(offer.media.first.flatMap { offer.iceCredentials(of: $0)?.ufrag })
        let srsUfrag = try XCTUnwrap(answer.media.first.flatMap { answer.iceCredentials(of: $0)?.ufrag })
        XCTAssertEqual(setup.sessionID, "\(srsUfrag):\(ourUfrag)")
    }

    func testPlayPostsToThePlayPathAndYieldsAnAnswerThatSends() throws {
        var (setup, captured) = try setup(fromRequest: "play.request.json", mode: .play)
        setup.start(now: Exchange.start)
        let request = try Exchange.next(&setup)
        XCTAssertEqual(request.request.target, "/rtc/v1/play/")
        XCTAssertEqual(try JSONValue(parsing: request.request.body), captured)
        try Exchange.answer(request, with: Fixtures.bytes("srs/play.response.http"), to: &setup)
        let answer = try SessionDescription.parse(try XCTUnwrap(Exchange.answerSDP(Exchange.events(&setup))))
        XCTAssertEqual(answer.media.map(\.direction), [.sendonly, .sendonly])
    }

    func testEipGoesInTheQueryButNotInTheApiField() throws {
        var (setup, _) = try setup(fromRequest: "publish.request.json", mode: .publish, eip: "127.0.0.1")
        setup.start(now: Exchange.start)
        let request = try Exchange.next(&setup)
        XCTAssertEqual(request.request.target, "/rtc/v1/publish/?eip=127.0.0.1")
        XCTAssertEqual(try JSONValue(parsing: request.request.body)["api"], "http://127.0.0.1:1985/rtc/v1/publish/")
    }

    func testCodecGoesInTheQueryAfterEip() throws {
        for (eip, target) in [("127.0.0.1", "/rtc/v1/play/?eip=127.0.0.1&codec=hevc"), (nil, "/rtc/v1/play/?codec=hevc")] {
            var (setup, _) = try setup(fromRequest: "play.request.json", mode: .play, eip: eip, codec: "hevc")
            setup.start(now: Exchange.start)
            XCTAssertEqual(try Exchange.next(&setup).request.target, target)
        }
    }

    func testEveryCode400FixtureFailsQuotingTheBody() throws {
        // A busy stream, a VP8-only offer and a non-JSON body: SRS says only {"code":400}.
        for (requestFile, responseFile) in [("error-busy-stream.request.json", "error-busy-stream.response.http"),
                                            ("error-vp8-only.request.json", "error-vp8-only.response.http"),
                                            ("publish.request.json", "error-not-json.response.http")] {
            var (setup, _) = try setup(fromRequest: requestFile, mode: .publish)
            setup.start(now: Exchange.start)
            try Exchange.answer(try Exchange.next(&setup), with: Fixtures.bytes("srs/\(responseFile)"), to: &setup)
            let error = try XCTUnwrap(Exchange.failure(Exchange.events(&setup)))
            XCTAssertEqual(error.message, #"SRS answered code 400: {"code":400}"#, responseFile)
            XCTAssertEqual(error.code, .refused)
            XCTAssertNil(setup.pollRequest())
        }
    }

    func testCodeZeroWithoutMediaSectionsIsTheMsidSsrcTrap() throws {
        var (setup, _) = try setup(fromRequest: "error-no-msid-ssrc.request.json", mode: .publish)
        setup.start(now: Exchange.start)
        try Exchange.answer(try Exchange.next(&setup), with: Fixtures.bytes("srs/error-no-msid-ssrc.response.http"), to: &setup)
        let error = try XCTUnwrap(Exchange.failure(Exchange.events(&setup)))
        XCTAssertTrue(error.message.hasPrefix("answer has no media sections: check msid/ssrc"), error.message)
        XCTAssertTrue(error.message.contains("131 bytes"), error.message)
        XCTAssertEqual(error.code, .badAnswer)
    }

    func testAConnectionClosedWithoutAByteSaysSo() throws {
        var (setup, _) = try setup(fromRequest: "publish.request.json", mode: .publish)
        setup.start(now: Exchange.start)
        try Exchange.answer(try Exchange.next(&setup), with: nil, to: &setup)
        let error = try XCTUnwrap(Exchange.failure(Exchange.events(&setup)))
        XCTAssertEqual(error.message, "SRS closed the connection without an answer")
        XCTAssertEqual(error.code, .noAnswer)
    }

    func testHttpErrorsAndBodiesThatAreNotJSONObjectsFail() throws {
        let cases: [([UInt8], String)] = [
            (Exchange.reply(404, body: "no such path"), "SRS answered HTTP 404 Not Found: no such path"),
            (Exchange.reply(200, body: "[1,2]"), "SRS answered with a body that is not a JSON object: [1,2]"),
            (Exchange.reply(200, body: #"{"server":"x"}"#), #"SRS answered without a code: {"server":"x"}"#),
            (Exchange.reply(200, body: #"{"code":0}"#), #"SRS answered code 0 without an sdp: {"code":0}"#),
            (Exchange.reply(200, body: #"{"code":5020}"#), #"SRS answered code 5020: {"code":5020}"#),
        ]
        for (reply, message) in cases {
            var (setup, _) = try setup(fromRequest: "publish.request.json", mode: .publish)
            setup.start(now: Exchange.start)
            try Exchange.answer(try Exchange.next(&setup), with: reply, to: &setup)
            XCTAssertEqual(Exchange.failure(Exchange.events(&setup))?.message, message)
        }
    }

    func testHangUpSendsNothingBecauseCloseNotifyEndsTheSession() throws {
        var (setup, _) = try setup(fromRequest: "publish.request.json", mode: .publish)
        setup.start(now: Exchange.start)
        try Exchange.answer(try Exchange.next(&setup), with: Fixtures.bytes("srs/publish.response.http"), to: &setup)
        _ = Exchange.events(&setup)
        setup.hangUp(now: Exchange.start)
        XCTAssertNil(setup.pollRequest())
        XCTAssertEqual(Exchange.events(&setup), [.closed])
    }
}
