@testable import PeerCore
import RTCBase
import XCTest

/// ICE restart between two peers in virtual time (RFC 8445 9): new credentials both ways,
/// a pair selected with them, and media still flowing on the same DTLS-SRTP session.
final class PeerIceRestartTests: XCTestCase {
    private func lines(_ sdp: String?, _ prefix: String) -> [String] {
        (sdp ?? "").split(separator: "\r\n").map(String.init).filter { $0.hasPrefix(prefix) }
    }

    func testARestartConnectsAgainWithNewCredentialsAndMediaGoesOn() throws {
        let pair = try PeerPair(offerer: [.video()], answerer: [.video()])
        XCTAssertTrue(pair.connect())
        let firstOffer = try XCTUnwrap(pair.offerer.localDescription)
        let firstAnswer = try XCTUnwrap(pair.answerer.localDescription)
        let restartAt = pair.network.now
        let offer = try pair.offerer.restartIce(now: restartAt)
        XCTAssertNotEqual(lines(offer, "a=ice-ufrag:"), lines(firstOffer, "a=ice-ufrag:"))
        XCTAssertNotEqual(lines(offer, "a=ice-pwd:"), lines(firstOffer, "a=ice-pwd:"))
        XCTAssertEqual(offer.split(separator: "\r\n").filter { !$0.hasPrefix("a=ice-") },
                       firstOffer.split(separator: "\r\n").filter { !$0.hasPrefix("a=ice-") }, "only the credentials change")
        pair.network.progress(for: .milliseconds(20))
        let answer = try pair.answerer.acceptIceRestart(offer, now: pair.network.now)
        XCTAssertNotEqual(lines(answer, "a=ice-ufrag:"), lines(firstAnswer, "a=ice-ufrag:"))
        pair.network.progress(for: .milliseconds(20))
        try pair.offerer.applyIceRestartAnswer(answer, now: pair.network.now)
        pair.network.progress(until: { [pair] in
            pair.drain()
            return pair.offerer.iceRestart?.connectedAt != nil && pair.answerer.iceRestart?.connectedAt != nil
        }, limit: pair.network.now + .seconds(5))
        let offererBack = try XCTUnwrap(pair.offerer.iceRestart?.connectedAt, "the offerer never selected a new pair")
        let answererBack = try XCTUnwrap(pair.answerer.iceRestart?.connectedAt, "the answerer never selected a new pair")
        XCTAssertGreaterThan(offererBack, restartAt + .milliseconds(40), "not before the answer came")
        XCTAssertLessThan(offererBack, restartAt + .seconds(1))
        XCTAssertGreaterThanOrEqual(answererBack, restartAt + .milliseconds(20))
        XCTAssertEqual(pair.offerer.iceRestart?.lostAtConnected, 0)
        let video = try MediaFixtures.video(.vp8, count: 10)
        XCTAssertEqual(pair.send(video, mid: "1", interval: .milliseconds(33)), 10)
        XCTAssertEqual(pair.answererLog.frames["1"]?.suffix(10).map(\.data), video.map(\.bytes), "media after the restart")
        XCTAssertTrue(pair.offererLog.failures.isEmpty && pair.answererLog.failures.isEmpty)
    }

    func testAnOfferThatKeepsTheUfragIsRefusedAsNoRestart() throws {
        let pair = try PeerPair(offerer: [.video()], answerer: [.video()])
        XCTAssertTrue(pair.connect())
        let same = try XCTUnwrap(pair.offerer.localDescription)
        XCTAssertThrowsError(try pair.answerer.acceptIceRestart(same, now: pair.network.now)) { error in
            XCTAssertEqual((error as? PeerError)?.message,
                           "the new offer keeps the old ice-ufrag: it is no ICE restart (RFC 8445 9), and other renegotiation is not supported")
        }
        XCTAssertThrowsError(try pair.answerer.restartIce(now: pair.network.now), "an answerer does not start a restart")
        XCTAssertNil(pair.answerer.iceRestart)
    }

    /// The answerer must restart too: an answer to the restart offer with the old ufrag
    /// (a server that ignored the restart) is refused, and the old remote credentials stay.
    func testAnAnswerThatKeepsTheUfragIsRefused() throws {
        let pair = try PeerPair(offerer: [.video()], answerer: [.video()])
        XCTAssertTrue(pair.connect())
        let oldAnswer = try XCTUnwrap(pair.answerer.localDescription)
        _ = try pair.offerer.restartIce(now: pair.network.now)
        XCTAssertThrowsError(try pair.offerer.applyIceRestartAnswer(oldAnswer, now: pair.network.now)) { error in
            XCTAssertEqual((error as? PeerError)?.message,
                           "the ICE restart answer keeps the old ice-ufrag: the answerer did not restart (RFC 8445 9)")
        }
        XCTAssertEqual(pair.offerer.remoteDescription, oldAnswer)
    }
}
