import Media
@testable import PeerCore
import RTCBase
import SDP
import WebRTCTestKit
import XCTest

final class PeerCallTests: XCTestCase {
    func testTwoPeersConnectAndExchangeOpusAndVp8FramesIntactInOrder() throws {
        let pair = try PeerPair(offerer: [.audio(), .video()], answerer: [.audio(), .video()])
        XCTAssertTrue(pair.connect(), "offerer \(pair.offererLog.failures), answerer \(pair.answererLog.failures)")
        let video = try MediaFixtures.video(.vp8, count: 30)
        let audio = try MediaFixtures.audio(count: 30)
        XCTAssertEqual(pair.send(audio, mid: "0", interval: .milliseconds(20)), 30)
        XCTAssertEqual(pair.send(video, mid: "1", interval: .milliseconds(33)), 30)
        XCTAssertEqual(pair.answererLog.frames["0"]?.map(\.data), audio.map(\.bytes))
        XCTAssertEqual(pair.answererLog.frames["1"]?.map(\.data), video.map(\.bytes))
        XCTAssertEqual(pair.answererLog.frames["1"]?.first?.isKeyframe, true)
        XCTAssertEqual(pair.answererLog.frames["1"]?.first?.codec, .vp8)
        let stats = pair.answerer.stats(now: pair.network.now)
        let videoStats = try XCTUnwrap(stats.received.first { $0.mid == "1" })
        XCTAssertEqual(videoStats.framesCompleted, 30)
        XCTAssertEqual(videoStats.rtp.packetsLost, 0)
        XCTAssertEqual(stats.malformed.total, 0)
    }

    func testH264FramesFromOpenH264ArriveByteForByteAndTheAnswerPrefersH264WhenOfferedFirst() throws {
        let h264Only = [PeerTransceiver.video(codecs: [.h264()])]
        let pair = try PeerPair(offerer: h264Only, answerer: [.video()])
        XCTAssertEqual(pair.offerer.sections.first?.codec, .h264)
        XCTAssertEqual(pair.answerer.sections.first?.codec, .h264)
        XCTAssertTrue(pair.connect())
        let video = try MediaFixtures.video(.h264, count: 30)
        XCTAssertEqual(pair.send(video, mid: "1", interval: .milliseconds(33)), video.count)
        XCTAssertEqual(pair.answererLog.frames["1"]?.count, video.count)
        XCTAssertEqual(pair.answererLog.frames["1"]?.map(\.data), video.map(\.bytes))
    }

    func testVp9FramesFromLibvpxArriveByteForByte() throws {
        let pair = try PeerPair(offerer: [.video(codecs: [.vp9()])], answerer: [.video()])
        XCTAssertEqual(pair.answerer.sections.first?.codec, .vp9)
        XCTAssertTrue(pair.connect())
        let video = try MediaFixtures.video(.vp9, count: 20)
        XCTAssertEqual(pair.send(video, mid: "1", interval: .milliseconds(33)), video.count)
        XCTAssertEqual(pair.answererLog.frames["1"]?.map(\.data), video.map(\.bytes))
        XCTAssertEqual(pair.answererLog.frames["1"]?.map(\.isKeyframe), video.map(\.isKeyframe))
    }

    /// One track cut once for two peers (as a worker's shared encoder does) arrives at
    /// both byte for byte; a peer whose payload budget differs cuts the frame itself.
    func testFramesCutOnceForSeveralPeersArriveIntactAtEach() throws {
        let video = try MediaFixtures.video(.vp8, count: 20)
        let pairs = [try PeerPair(offerer: [.video()], answerer: [.video()]),
                     try PeerPair(offerer: [.video()], answerer: [.video()], offererMtu: 900)]
        for pair in pairs { XCTAssertTrue(pair.connect()) }
        let packetizer = TrackPacketizer(codec: .vp8, pictureId: 0x7ffe)
        for frame in video {
            let cut = packetizer.packetize(frame)
            XCTAssertGreaterThan(cut.payloads.count, 0)
            for pair in pairs {
                XCTAssertTrue(pair.offerer.send(cut, kind: .video, now: pair.network.now))
                pair.network.progress(for: .milliseconds(33))
            }
        }
        for pair in pairs {
            pair.drain()
            let received = pair.answererLog.frames["1"]?.map(\.data) ?? []
            XCTAssertEqual(received.count, video.count)
            XCTAssertTrue(received == video.map(\.bytes), "every frame byte for byte")
            XCTAssertEqual(pair.offerer.stats(now: pair.network.now).sent.first?.frames, video.count)
        }
        // The 900-byte peer cut its own packets: more of them than the shared 1200-byte cut.
        let packets = pairs.map { $0.offerer.stats(now: $0.network.now).sent.first?.counters.packets ?? 0 }
        XCTAssertGreaterThan(packets[1], packets[0])
    }

    /// The first DTLS timer follows the ICE round trip (twice it) within the profile's
    /// bounds: libwebrtc's 50 ms to 3 s, rfc8445's 100 ms to 1 s (RFC 9147 5.8.2).
    func testDtlsRetransmitTimeoutFollowsTheIceRoundTrip() {
        XCTAssertEqual(Peer.dtlsRetransmitTimeout(roundTrip: nil, profile: .libwebrtc), .seconds(1))
        XCTAssertEqual(Peer.dtlsRetransmitTimeout(roundTrip: .microseconds(300), profile: .libwebrtc), .milliseconds(50))
        XCTAssertEqual(Peer.dtlsRetransmitTimeout(roundTrip: .milliseconds(120), profile: .libwebrtc), .milliseconds(240))
        XCTAssertEqual(Peer.dtlsRetransmitTimeout(roundTrip: .milliseconds(900), profile: .libwebrtc), .milliseconds(1800))
        XCTAssertEqual(Peer.dtlsRetransmitTimeout(roundTrip: .seconds(2), profile: .libwebrtc), .seconds(3))
        XCTAssertEqual(Peer.dtlsRetransmitTimeout(roundTrip: nil, profile: .rfc8445), .seconds(1))
        XCTAssertEqual(Peer.dtlsRetransmitTimeout(roundTrip: .microseconds(300), profile: .rfc8445), .milliseconds(100))
        XCTAssertEqual(Peer.dtlsRetransmitTimeout(roundTrip: .milliseconds(120), profile: .rfc8445), .milliseconds(240))
        XCTAssertEqual(Peer.dtlsRetransmitTimeout(roundTrip: .milliseconds(900), profile: .rfc8445), .seconds(1))
    }

    func testMediaFlowsBackFromTheAnswererOnSendrecvSections() throws {
        let pair = try PeerPair(offerer: [.audio()], answerer: [.audio()])
        XCTAssertTrue(pair.connect())
        let audio = try MediaFixtures.audio(count: 10)
        for frame in audio {
            XCTAssertTrue(pair.answerer.send(frame, kind: .audio, now: pair.network.now))
            pair.network.progress(for: .milliseconds(20))
        }
        pair.drain()
        XCTAssertEqual(pair.offererLog.frames["0"]?.map(\.data), audio.map(\.bytes))
    }

    func testSetupPhasesAreMonotonicAndPlausible() throws {
        let pair = try PeerPair(offerer: [.audio(), .video()], answerer: [.audio(), .video()])
        XCTAssertTrue(pair.connect())
        _ = pair.send(try MediaFixtures.video(.vp8, count: 3), mid: "1", interval: .milliseconds(33))
        let timeline = pair.answerer.timeline
        let offerer = pair.offerer.timeline
        // The offerer waited 40 ms of virtual time for its answer (PeerPair's signaling).
        XCTAssertEqual(try XCTUnwrap(offerer.signalingMs), 40, accuracy: 0.001)
        let stamps = [timeline.start, timeline.remoteDescriptionApplied, timeline.iceConnected, timeline.dtlsConnected,
                      timeline.firstPacket, timeline.firstFrame].map { try? XCTUnwrap($0) }
        XCTAssertFalse(stamps.contains { $0 == nil }, "\(timeline)")
        let values = stamps.compactMap { $0 }
        XCTAssertEqual(values, values.sorted())
        for ms in [offerer.iceMs, offerer.dtlsMs, offerer.setupMs, timeline.firstPacketMs, timeline.firstFrameMs] {
            let value = try XCTUnwrap(ms)
            XCTAssertGreaterThanOrEqual(value, 0)
            XCTAssertLessThan(value, 1_000)
        }
        XCTAssertEqual(pair.offererLog.phases[.signaling], offerer.remoteDescriptionApplied)
        XCTAssertEqual(pair.answererLog.phases[.firstFrame], timeline.firstFrame)
        let stats = pair.offerer.stats(now: pair.network.now)
        XCTAssertEqual(stats.ice.selectedLocalType, .host)
        XCTAssertGreaterThan(stats.ice.checksSent, 0)
    }

    func testCloseSendsCloseNotifyAndBothSidesReportClosed() throws {
        let pair = try PeerPair(offerer: [.audio()], answerer: [.audio()])
        XCTAssertTrue(pair.connect())
        pair.offerer.close(now: pair.network.now)
        pair.network.progress(for: .milliseconds(50))
        pair.drain()
        XCTAssertTrue(pair.offererLog.closed)
        XCTAssertTrue(pair.answererLog.closed)
        XCTAssertTrue(pair.answerer.isClosed)
        XCTAssertFalse(pair.offerer.send(try MediaFixtures.audio(count: 1)[0], mid: "0", now: pair.network.now))
    }
}
