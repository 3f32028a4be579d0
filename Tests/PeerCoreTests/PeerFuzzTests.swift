import PeerCore
import RTCBase
import WebRTCTestKit
import XCTest

final class PeerFuzzTests: XCTestCase {
    func testHundredThousandMutatedDatagramsAreCountedAndTheCallStillWorks() throws {
        let network = VirtualNetwork()
        var captured: [[UInt8]] = []
        network.tap = { captured.append($0.payload) }
        let pair = try PeerPair(offerer: [.audio(), .video()], answerer: [.audio(), .video()], network: network)
        XCTAssertTrue(pair.connect())
        let frames = (0..<10).map { PeerLossRecoveryTests.vp8Frame(index: $0, size: 3_000, keyframe: $0 == 0) }
        _ = pair.send(frames, mid: "1", interval: .milliseconds(33), settle: .seconds(6))
        network.tap = nil
        // Seeds: STUN checks and answers, DTLS flights, SRTP and SRTCP, as captured.
        let kinds = Set(captured.compactMap(\.first).map { $0 >> 6 })
        XCTAssertEqual(kinds, [0, 2])  // STUN/DTLS (0-63) and RTP/RTCP (128-191)

        let before = pair.answerer.stats(now: network.now).malformed.total
        var fuzzer = Fuzzer(seeds: captured, seed: 0xF022, maxLength: 1_500)
        fuzzer.run(iterations: 100_000) { datagram in
            pair.answerer.handle(ReceivedDatagram(payload: datagram, source: PeerPair.offererAddress, destination: PeerPair.answererAddress), now: network.now)
        }
        let malformed = pair.answerer.stats(now: network.now).malformed
        // DTLS records that fail their MAC are dropped inside OpenSSL, uncounted; STUN
        // answers to no transaction are ignored, not malformed.
        XCTAssertGreaterThan(malformed.total - before, 80_000, "\(malformed)")
        XCTAssertGreaterThan(malformed.srtp, 10_000)
        XCTAssertGreaterThan(malformed.stun, 1_000)
        XCTAssertGreaterThan(malformed.unknownDatagrams, 10_000)
        pair.drain()
        XCTAssertEqual(pair.answererLog.failures, [])

        // The call still carries frames afterwards.
        let later = (10..<20).map { PeerLossRecoveryTests.vp8Frame(index: $0, size: 3_000, keyframe: $0 == 10) }
        let beforeCount = pair.answererLog.frames["1"]?.count ?? 0
        _ = pair.send(later, mid: "1", interval: .milliseconds(33))
        XCTAssertEqual(pair.answererLog.frames["1"]?.dropFirst(beforeCount).map(\.data), later.map(\.bytes))
        print("fuzz: \(malformed)")
    }

    func testMutatedRemoteDescriptionsAreRejectedOrAnsweredNeverATrap() throws {
        let offers = try ["aiortc/offer-sendrecv-vp8-opus.sdp", "chromium/pair-offer.sdp", "chromium/offer-h264-only.sdp"]
            .map { Array(try Fixtures.text($0).utf8) }
        var fuzzer = Fuzzer(seeds: offers, seed: 0x5D9, maxLength: 8_000)
        var answered = 0
        var rejected = 0
        fuzzer.run(iterations: 3_000) { bytes in
            guard let peer = try? Peer(
                configuration: PeerConfiguration(
                    role: .answerer, transceivers: [.audio(), .video()], localAddresses: [PeerPair.answererAddress], seed: 1),
                now: .zero)
            else { return XCTFail("configuration") }
            do {
                try peer.setRemoteOffer(String(decoding: bytes, as: UTF8.self), now: .zero)
                _ = try peer.createAnswer(now: .zero)
                answered += 1
            } catch {
                rejected += 1
                XCTAssertEqual(peer.failure?.phase, .signaling)
            }
        }
        XCTAssertEqual(answered + rejected, 3_000)
        XCTAssertGreaterThan(answered, 100)
        XCTAssertGreaterThan(rejected, 1_000)
        print("sdp fuzz: \(answered) answered, \(rejected) rejected")
    }
}
