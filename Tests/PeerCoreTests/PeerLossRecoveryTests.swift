import Impairment
import PeerCore
import RTCBase
import SDP
import WebRTCTestKit
import XCTest

final class PeerLossRecoveryTests: XCTestCase {
    /// A synthetic VP8 frame of `size` bytes: the payload header's P bit (RFC 7741 4.3)
    /// says key or delta; the rest is the frame index repeated, so every frame differs.
    static func vp8Frame(index: Int, size: Int, keyframe: Bool) -> EncodedMediaFrame {
        var bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: size)
        bytes[0] = keyframe ? 0x10 : 0x11
        bytes[1] = UInt8(truncatingIfNeeded: index >> 8)
        return EncodedMediaFrame(
            codec: .vp8, bytes: bytes, isKeyframe: keyframe, rtpTimestamp: UInt32(index * 3000),
            captureTime: Instant(nanoseconds: Int64(index) * 33_333_333))
    }

    func testFivePercentLossAfterDtlsIsRecoveredByNackAndReportedAsFivePercent() throws {
        var delay = ImpairmentProfile()
        delay.delayMs = 10
        let network = VirtualNetwork(defaultProfile: delay, seed: 11)
        let pair = try PeerPair(
            offerer: [.video("1", .sendonly, codecs: [.vp8()])], answerer: [.video("1", .recvonly, codecs: [.vp8()])],
            network: network)
        XCTAssertTrue(pair.connect())
        var lossy = delay
        lossy.lossPct = 5
        network.impair(from: PeerPair.offererAddress, to: PeerPair.answererAddress, profile: lossy, seed: 21)
        network.impair(from: PeerPair.answererAddress, to: PeerPair.offererAddress, profile: lossy, seed: 22)

        // 30 s at 30 fps, 5 packets per frame: 150 packets/s.
        let frames = (0..<900).map { Self.vp8Frame(index: $0, size: 5_600, keyframe: $0 % 300 == 0) }
        XCTAssertEqual(pair.send(frames, mid: "1", interval: .nanoseconds(33_333_333), settle: .seconds(1)), 900)

        let stats = pair.answerer.stats(now: network.now)
        let video = try XCTUnwrap(stats.received.first)
        let link = try XCTUnwrap(network.counters(from: PeerPair.offererAddress, to: PeerPair.answererAddress))
        XCTAssertEqual(video.rtp.packetsExpected, 4_500)
        XCTAssertLessThan(video.rtp.residualLossPercent, 0.5, "\(video.rtp)")
        XCTAssertEqual(video.rtp.lossPercent, 5, accuracy: 0.5, "\(video.rtp)")
        XCTAssertGreaterThan(video.rtp.nacksSent, 0)
        XCTAssertGreaterThan(link.droppedByLoss, 150)
        // Every frame that came out is the one sent with its timestamp, in order.
        let received = try XCTUnwrap(pair.answererLog.frames["1"])
        XCTAssertGreaterThan(received.count, 890)
        let offset = received[0].rtpTimestamp
        var previous = -1
        for frame in received {
            let index = Int((frame.rtpTimestamp &- offset) / 3000)
            XCTAssertGreaterThan(index, previous)
            XCTAssertEqual(frame.data, frames[index].bytes)
            previous = index
        }
        let sent = try XCTUnwrap(pair.offerer.stats(now: network.now).sent.first)
        print("5 % loss run: loss_pct \(video.rtp.lossPercent), residual \(video.rtp.residualLossPercent), expected \(video.rtp.packetsExpected), link dropped \(link.droppedByLoss) of \(link.sent), nacks \(video.rtp.nacksSent), resends \(sent.counters.retransmissions), frames \(received.count) dropped \(video.framesDropped)")
        XCTAssertGreaterThan(sent.counters.retransmissions, 0)
        XCTAssertEqual(stats.malformed.total, 0)
    }

    func testLostAudioPacketsDelayTheNextOnlyByTheReorderWait() throws {
        let pair = try PeerPair(offerer: [.audio("0", .sendonly)], answerer: [.audio("0", .recvonly)])
        XCTAssertTrue(pair.connect())
        var lossy = ImpairmentProfile()
        lossy.lossPct = 10
        pair.network.impair(from: PeerPair.offererAddress, to: PeerPair.answererAddress, profile: lossy, seed: 3)
        let audio = try MediaFixtures.audio(count: 200)
        _ = pair.send(audio, mid: "0", interval: .milliseconds(20))
        let received = try XCTUnwrap(pair.answererLog.frames["0"])
        XCTAssertEqual(Double(received.count), 180, accuracy: 10)
        // Drained every 20 ms, a frame is out at most 20 ms after its packet plus the
        // 20 ms reorder wait, gaps or not (a NACK-style wait would add 50 ms or more).
        let drained = try XCTUnwrap(pair.answererLog.drainedAt["0"])
        let worst = zip(received, drained).map { $1 - $0.lastArrival }.max()
        XCTAssertLessThanOrEqual(try XCTUnwrap(worst), .milliseconds(40))
        let stats = try XCTUnwrap(pair.answerer.stats(now: pair.network.now).received.first)
        XCTAssertEqual(stats.rtp.nacksSent, 0)
        XCTAssertEqual(stats.framesCompleted, received.count)
    }
}
