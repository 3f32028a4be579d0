import Net
import RTCBase
import SDP
import Signaling
import WebRTCTestKit
import XCTest

/// WHIP and WHEP against SRS 7.0.18's captured answers, and RFC 9725 behaviour SRS does
/// not show (redirects, Retry-After, trickle, ICE restart, Link headers) against replies
/// built in the test.
final class WHIPCallSetupTests: XCTestCase {
    private let api = Endpoint(scheme: .http, host: "127.0.0.1", port: 1985)

    func testSRSWhepAsksForHevcInTheQuery() throws {
        var setup = WHIPCallSetup.srs(kind: .whep, api: api, app: "live", stream: "hevc", offer: "v=0", eip: "127.0.0.1", codec: "hevc")
        setup.start(now: Exchange.start)
        XCTAssertEqual(try Exchange.next(&setup).request.target, "/rtc/v1/whep/?app=live&stream=hevc&eip=127.0.0.1&codec=hevc")
    }

    func testSRSWhipPublishThenDeleteMatchesTheCapturedExchange() throws {
        let offer = try Fixtures.text("srs/whip.request.sdp")
        var setup = WHIPCallSetup.srs(kind: .whip, api: api, app: "live", stream: "whipstream", offer: offer)
        setup.start(now: Exchange.start)
        let post = try Exchange.next(&setup)
        XCTAssertEqual(post.request.method, .post)
        XCTAssertEqual(post.request.target, "/rtc/v1/whip/?app=live&stream=whipstream")
        XCTAssertEqual(post.request.headers["Content-Type"], "application/sdp")
        XCTAssertNil(post.request.headers["Authorization"])
        XCTAssertEqual(post.request.body, Array(offer.utf8))

        try Exchange.answer(post, with: Fixtures.bytes("srs/whip.response.http"), to: &setup)
        let answer = try SessionDescription.parse(try XCTUnwrap(Exchange.answerSDP(Exchange.events(&setup))))
        XCTAssertEqual(answer.media.count, 2)
        XCTAssertEqual(setup.sessionURL?.description,
                       "http://127.0.0.1:1985/rtc/v1/whip/?action=delete&token=2i733898g&app=live&stream=whipstream&session=xvn46z9h:xuVS")
        XCTAssertNil(setup.etag, "SRS sends no ETag")

        setup.hangUp(now: Exchange.start)
        let delete = try Exchange.next(&setup)
        // Byte for byte the DELETE that SRS accepted.
        XCTAssertEqual(delete.request.serialized(), try Fixtures.bytes("srs/whip-delete.request.http"))
        try Exchange.answer(delete, with: Fixtures.bytes("srs/whip-delete.response.http"), to: &setup)
        XCTAssertEqual(Exchange.events(&setup), [.closed])
    }

    func testSRSWhepLocationPointsAtTheWhipPathAndIsDeletedThere() throws {
        var setup = WHIPCallSetup.srs(kind: .whep, api: api, app: "live", stream: "livestream",
                                      offer: try Fixtures.text("srs/whep.request.sdp"))
        setup.start(now: Exchange.start)
        let post = try Exchange.next(&setup)
        XCTAssertEqual(post.request.target, "/rtc/v1/whep/?app=live&stream=livestream")
        try Exchange.answer(post, with: Fixtures.bytes("srs/whep.response.http"), to: &setup)
        let answer = try SessionDescription.parse(try XCTUnwrap(Exchange.answerSDP(Exchange.events(&setup))))
        XCTAssertEqual(answer.media.map(\.direction), [.sendonly, .sendonly])
        setup.hangUp(now: Exchange.start)
        let delete = try Exchange.next(&setup)
        XCTAssertEqual(delete.request.method, .delete)
        XCTAssertTrue(delete.request.target.hasPrefix("/rtc/v1/whip/?action=delete&token=0c2860ba0&app=live&stream=livestream"))
    }

    func testSRSClosingOnABadOfferIsReportedInTheseWords() throws {
        // The captured request: its body is not SDP, and SRS answered with 0 bytes and EOF.
        let captured = try Fixtures.text("srs/error-whip-bad-sdp.request.http")
        let body = String(try XCTUnwrap(captured.components(separatedBy: "\r\n\r\n").last))
        var setup = WHIPCallSetup.srs(kind: .whip, api: api, app: "live", stream: "badsdp", offer: body)
        setup.start(now: Exchange.start)
        let post = try Exchange.next(&setup)
        XCTAssertEqual(post.request.body, Array("v=0\r\nthis is not an sdp\r\n".utf8))
        try Exchange.answer(post, with: nil, to: &setup)
        let error = try XCTUnwrap(Exchange.failure(Exchange.events(&setup)))
        XCTAssertTrue(error.message.hasPrefix("server closed the connection without an answer"), error.message)
        XCTAssertEqual(error.code, .noAnswer)
        setup.hangUp(now: Exchange.start)
        XCTAssertNil(setup.pollRequest(), "no session, nothing to delete")
    }

    // MARK: RFC 9725 behaviour

    private func whip(_ kind: WHIPCallSetup.Kind = .whip, token: String? = "s3cret") throws -> WHIPCallSetup {
        let endpoint = try Endpoint(parsing: "http://127.0.0.1:8080/whip/endpoint/cam1")
        return WHIPCallSetup(kind: kind, endpoint: endpoint, offer: try Fixtures.text("aiortc/offer-sendonly-h264-opus.sdp"), token: token)
    }

    private func created(location: String = "sessions/abc", extra: [(String, String)] = []) throws -> [UInt8] {
        Exchange.reply(201, [("Content-Type", "application/sdp"), ("Location", location)] + extra,
                       body: try Fixtures.text("srs/whip.response.http").components(separatedBy: "\r\n\r\n").dropFirst().joined())
    }

    func testBearerTokenRelativeLocationETagAndIceServerLinks() throws {
        var setup = try whip()
        setup.start(now: Exchange.start)
        let post = try Exchange.next(&setup)
        XCTAssertEqual(post.request.headers["Authorization"], "Bearer s3cret")
        XCTAssertEqual(post.request.headers["Accept"], "application/sdp")
        let links = [("Link", #"<stun:stun.example.net>; rel="ice-server""#),
                     ("Link", #"<turn:turn.example.net?transport=udp>; rel="ice-server"; username="user"; credential="pa\"ss"; credential-type="password", <https://example.net/x>; rel="next""#)]
        try Exchange.answer(post, with: created(extra: [("ETag", "\"xyzzy\"")] + links), to: &setup)
        let events = Exchange.events(&setup)
        XCTAssertEqual(events.first, .iceServers([
            IceServerConfig(urls: ["stun:stun.example.net"]),
            IceServerConfig(urls: ["turn:turn.example.net?transport=udp"], username: "user", credential: "pa\"ss", credentialType: "password"),
        ]))
        XCTAssertNotNil(Exchange.answerSDP(events))
        XCTAssertEqual(setup.sessionURL?.description, "http://127.0.0.1:8080/whip/endpoint/sessions/abc")
        XCTAssertEqual(setup.etag, "\"xyzzy\"")
        setup.hangUp(now: Exchange.start)
        let delete = try Exchange.next(&setup)
        XCTAssertEqual(delete.request.target, "/whip/endpoint/sessions/abc")
        XCTAssertEqual(delete.request.headers["Authorization"], "Bearer s3cret")
    }

    func testRedirectsArePostedAgainButOnlyThreeTimes() throws {
        var setup = try whip()
        setup.start(now: Exchange.start)
        try Exchange.answer(try Exchange.next(&setup), with: Exchange.reply(307, [("Location", "http://127.0.0.1:9090/other")]), to: &setup)
        let second = try Exchange.next(&setup)
        XCTAssertEqual(second.endpoint.port, 9090)
        XCTAssertEqual(second.request.target, "/other")
        XCTAssertEqual(second.request.headers["Host"], "127.0.0.1:9090")
        XCTAssertEqual(second.request.headers["Authorization"], "Bearer s3cret")
        try Exchange.answer(second, with: Exchange.reply(308, [("Location", "/again")]), to: &setup)
        for _ in 0..<2 {
            try Exchange.answer(try Exchange.next(&setup), with: Exchange.reply(307, [("Location", "/again")]), to: &setup)
        }
        let error = try XCTUnwrap(Exchange.failure(Exchange.events(&setup)))
        XCTAssertEqual(error.message, "WHIP redirected more than 3 times (last to http://127.0.0.1:9090/again)")
        XCTAssertNil(setup.pollRequest())
    }

    func testServiceUnavailableCarriesRetryAfter() throws {
        var setup = try whip()
        setup.start(now: Exchange.start)
        try Exchange.answer(try Exchange.next(&setup), with: Exchange.reply(503, [("Retry-After", "30")], body: "busy"), to: &setup)
        let error = try XCTUnwrap(Exchange.failure(Exchange.events(&setup)))
        XCTAssertEqual(error.code, .retryLater)
        XCTAssertEqual(error.retryAfter, .seconds(30))
        XCTAssertTrue(error.message.contains("503 Service Unavailable (retry after 30 s): busy"), error.message)
    }

    func testWhepConflictMeansTheStreamIsNotThereYet() throws {
        var setup = try whip(.whep)
        setup.start(now: Exchange.start)
        let problem = #"{"type":"about:blank","title":"stream not found","detail":"cam1 has no publisher"}"#
        try Exchange.answer(try Exchange.next(&setup),
                            with: Exchange.reply(409, [("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT"), ("Content-Type", "application/problem+json")], body: problem),
                            to: &setup)
        let error = try XCTUnwrap(Exchange.failure(Exchange.events(&setup)))
        XCTAssertEqual(error.retryAfter, .date("Wed, 21 Oct 2015 07:28:00 GMT"))
        XCTAssertTrue(error.message.hasSuffix("409 Conflict (retry after Wed, 21 Oct 2015 07:28:00 GMT): stream not found: cam1 has no publisher"), error.message)
    }

    func testOtherErrorsFailQuotingTheBody() throws {
        var setup = try whip()
        setup.start(now: Exchange.start)
        try Exchange.answer(try Exchange.next(&setup), with: Exchange.reply(401, body: "bad token"), to: &setup)
        let error = try XCTUnwrap(Exchange.failure(Exchange.events(&setup)))
        XCTAssertEqual(error.message, "WHIP POST http://127.0.0.1:8080/whip/endpoint/cam1 answered 401 Unauthorized: bad token")
        XCTAssertEqual(error.code, .refused)
    }

    func testWhepCounterOfferIsAnsweredWithAPatch() throws {
        var setup = try whip(.whep, token: nil)
        setup.start(now: Exchange.start)
        let counterOffer = try Fixtures.text("chromium/pair-offer.sdp")
        try Exchange.answer(try Exchange.next(&setup),
                            with: Exchange.reply(406, [("Content-Type", "application/sdp"), ("Location", "/whep/s/1"), ("ETag", "\"e1\"")], body: counterOffer),
                            to: &setup)
        XCTAssertEqual(Exchange.events(&setup), [.offer(counterOffer)])
        let ourAnswer = try Fixtures.text("chromium/pair-answer.sdp")
        setup.answer(ourAnswer, now: Exchange.start)
        let patch = try Exchange.next(&setup)
        XCTAssertEqual(patch.request.method, .patch)
        XCTAssertEqual(patch.request.target, "/whep/s/1")
        XCTAssertEqual(patch.request.headers["Content-Type"], "application/sdp")
        XCTAssertEqual(patch.request.headers["If-Match"], "\"e1\"")
        XCTAssertEqual(patch.request.body, Array(ourAnswer.utf8))
        try Exchange.answer(patch, with: Exchange.reply(204), to: &setup)
        XCTAssertEqual(Exchange.events(&setup), [.notice("WHEP accepted our answer to its counter-offer")])
    }

    func testTrickleWaitsForTheSessionThenPatchesCandidatesTogether() throws {
        var setup = try whip()
        setup.start(now: Exchange.start)
        let post = try Exchange.next(&setup)
        let first = TrickleCandidate(mid: "0", mLineIndex: 0, candidate: "candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host")
        setup.trickle(first, now: Exchange.start)
        XCTAssertNil(setup.pollRequest(), "no session URL yet")
        try Exchange.answer(post, with: created(extra: [("ETag", "\"v1\"")]), to: &setup)
        let patch = try Exchange.next(&setup)
        XCTAssertEqual(patch.request.method, .patch)
        XCTAssertEqual(patch.request.headers["Content-Type"], "application/trickle-ice-sdpfrag")
        XCTAssertEqual(patch.request.headers["If-Match"], "\"v1\"")
        // While it runs, two more come: the second video candidate and the end.
        setup.trickle(TrickleCandidate(mid: "1", mLineIndex: 1, candidate: "candidate:2 1 udp 2130706431 127.0.0.1 5002 typ host"), now: Exchange.start)
        setup.trickle(nil, now: Exchange.start)
        XCTAssertNil(setup.pollRequest(), "one PATCH at a time")
        let offer = try SessionDescription.parse(try Fixtures.text("aiortc/offer-sendonly-h264-opus.sdp"))
        let credentials = try XCTUnwrap(offer.media.first.flatMap { offer.iceCredentials(of: $0) })
        XCTAssertEqual(patch.request.bodyText, """
            a=ice-ufrag:\(credentials.ufrag)\r
            a=ice-pwd:\(credentials.pwd)\r
            m=audio 9 UDP/TLS/RTP/SAVPF 0\r
            a=mid:0\r
            a=candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host\r

            """)
        try Exchange.answer(patch, with: Exchange.reply(204, [("ETag", "\"v2\"")]), to: &setup)
        let second = try Exchange.next(&setup)
        XCTAssertEqual(second.request.headers["If-Match"], "\"v2\"")
        XCTAssertEqual(second.request.bodyText, """
            a=ice-ufrag:\(credentials.ufrag)\r
            a=ice-pwd:\(credentials.pwd)\r
            m=audio 9 UDP/TLS/RTP/SAVPF 0\r
            a=mid:0\r
            a=end-of-candidates\r
            m=video 9 UDP/TLS/RTP/SAVPF 0\r
            a=mid:1\r
            a=candidate:2 1 udp 2130706431 127.0.0.1 5002 typ host\r
            a=end-of-candidates\r

            """)
    }

    func testAServerThatDoesNotTrickleIsLeftAlone() throws {
        var setup = try whip()
        setup.start(now: Exchange.start)
        try Exchange.answer(try Exchange.next(&setup), with: created(), to: &setup)
        _ = Exchange.events(&setup)
        setup.trickle(TrickleCandidate(mid: "0", mLineIndex: 0, candidate: "candidate:1 1 udp 1 127.0.0.1 5000 typ host"), now: Exchange.start)
        try Exchange.answer(try Exchange.next(&setup), with: Exchange.reply(405), to: &setup)
        XCTAssertEqual(Exchange.events(&setup), [.notice("WHIP server does not trickle (405); candidates stay in the offer")])
        setup.trickle(nil, now: Exchange.start)
        XCTAssertNil(setup.pollRequest())
    }

    func testIceRestartPatchesNewCredentialsWithIfMatchStar() throws {
        var setup = try whip()
        setup.start(now: Exchange.start)
        try Exchange.answer(try Exchange.next(&setup), with: created(extra: [("ETag", "\"v1\"")]), to: &setup)
        _ = Exchange.events(&setup)
        setup.restartICE(ufrag: "newU", pwd: "newPasswordNewPassword12", now: Exchange.start)
        let patch = try Exchange.next(&setup)
        XCTAssertEqual(patch.request.headers["If-Match"], "\"*\"")
        XCTAssertTrue(patch.request.bodyText.hasPrefix("a=ice-ufrag:newU\r\na=ice-pwd:newPasswordNewPassword12\r\nm=audio 9 UDP/TLS/RTP/SAVPF 0\r\na=mid:0\r\nm=video"),
                      patch.request.bodyText)
        let serverFragment = "a=ice-ufrag:srv2\r\na=ice-pwd:serverpasswordserverpass\r\n"
        try Exchange.answer(patch, with: Exchange.reply(200, [("ETag", "\"v2\""), ("Content-Type", "application/trickle-ice-sdpfrag")], body: serverFragment), to: &setup)
        XCTAssertEqual(Exchange.events(&setup), [.iceRestarted(serverFragment)])
        XCTAssertEqual(setup.etag, "\"v2\"")
    }

    func testHangUpDuringThePostDeletesTheSessionOnceItExists() throws {
        var setup = try whip()
        setup.start(now: Exchange.start)
        let post = try Exchange.next(&setup)
        setup.hangUp(now: Exchange.start)
        XCTAssertNil(setup.pollRequest())
        try Exchange.answer(post, with: created(), to: &setup)
        let delete = try Exchange.next(&setup)
        XCTAssertEqual(delete.request.method, .delete)
        try Exchange.answer(delete, with: Exchange.reply(200), to: &setup)
        XCTAssertEqual(Exchange.events(&setup).last, .closed)
    }
}
