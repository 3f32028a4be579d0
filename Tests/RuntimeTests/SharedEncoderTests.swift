import EventLoop
import RTCBase
@testable import Runtime
import XCTest

/// The shared encoder's keyframe requests: forced keyframes stay `keyframeSpacing` apart,
/// and a request inside the spacing is kept for its end rather than dropped (found with
/// Janus VideoRoom: a second subscriber joining 200 ms after the first never got a
/// keyframe and asked 18 times in 5 s).
final class SharedEncoderTests: XCTestCase {
    func testARequestInsideTheSpacingIsHonouredWhenTheSpacingEnds() throws {
        let loop = try EventLoop()
        let encoder = SharedEncoder(track: .video(codec: .vp8, size: Resolution(width: 160, height: 90), fps: 30, bitrate: 150_000, keyframeInterval: 300, file: nil), loop: loop,
                                    epoch: loop.now())
        defer { encoder.stop(at: loop.now()) }
        var keyframes: [Instant] = []
        var frames = 0
        let owner = NSObject()
        encoder.subscribe(owner) { frame in
            frames += 1
            if frame.frame.isKeyframe { keyframes.append(frame.frame.captureTime) }
            XCTAssertTrue(frame.payloads.allSatisfy { $0.bytes.count <= frame.maxPayloadSize }, "cut to the payload budget")
            XCTAssertEqual(frame.payloads.last?.marker, true, "the last packet of a frame has the marker")
        }
        // The first frame is a keyframe by itself; 300 frames pass before the next unasked one.
        _ = loop.run(until: { frames >= 10 }, timeout: .seconds(5))
        encoder.requestKeyframe()
        _ = loop.run(until: { keyframes.count >= 2 }, timeout: .seconds(2))
        encoder.requestKeyframe()  // well inside the 500 ms spacing
        _ = loop.run(until: { keyframes.count >= 3 }, timeout: .seconds(3))
        XCTAssertEqual(keyframes.count, 3, "the first, the asked one and the one asked inside the spacing")
        guard keyframes.count == 3 else { return }
        let apart = (keyframes[2] - keyframes[1]).milliseconds
        XCTAssertGreaterThanOrEqual(apart, SharedEncoder.keyframeSpacing.milliseconds)
        XCTAssertLessThan(apart, SharedEncoder.keyframeSpacing.milliseconds + 1000.0 / 30 + 1, "forced at the first frame after the spacing")
    }

    /// Issue 21 item 15: one frame made late on a busy machine is no finding; more than 1 %
    /// of the frames due is (a 4K encode on two cores falls behind by far more).
    func testLateFramesAreAWarningOnlyAboveOnePercentOfTheFramesDue() {
        XCTAssertFalse(ScenarioRunner.encodersFellBehind(late: 0, due: 0))
        XCTAssertFalse(ScenarioRunner.encodersFellBehind(late: 1, due: 150), "one late frame in 5 s of 30 fps")
        XCTAssertFalse(ScenarioRunner.encodersFellBehind(late: 3, due: 300), "exactly 1 %")
        XCTAssertTrue(ScenarioRunner.encodersFellBehind(late: 4, due: 300))
        XCTAssertTrue(ScenarioRunner.encodersFellBehind(late: 1, due: 0))
    }

    /// Every encoder of one fan-out stamps its frames from one media clock (90 kHz since the
    /// fan-out began), so a sender switched to another encoder mid-stream (a timeline
    /// `video.resolution`) keeps RTP timestamps running on instead of starting again at 0.
    func testEncodersOfOneFanoutShareOneMediaClock() throws {
        let loop = try EventLoop()
        let fanout = MediaFanout(loop: loop)
        defer { fanout.stopAll() }
        let small = fanout.encoder(for: .video(codec: .vp8, size: Resolution(width: 160, height: 90), fps: 30, bitrate: 150_000, keyframeInterval: 300, file: nil))
        var first: [(timestamp: UInt32, capture: Instant)] = []
        let owner = NSObject()
        small.subscribe(owner) { first.append(($0.frame.rtpTimestamp, $0.frame.captureTime)) }
        _ = loop.run(until: { first.count >= 15 }, timeout: .seconds(5))
        small.unsubscribe(owner)
        fanout.release(small.track)
        XCTAssertTrue(small.isUnused)
        let large = fanout.encoder(for: .video(codec: .vp8, size: Resolution(width: 320, height: 180), fps: 30, bitrate: 300_000, keyframeInterval: 300, file: nil))
        var second: [(timestamp: UInt32, capture: Instant)] = []
        large.subscribe(owner) { second.append(($0.frame.rtpTimestamp, $0.frame.captureTime)) }
        _ = loop.run(until: { second.count >= 5 }, timeout: .seconds(5))
        let before = try XCTUnwrap(first.last), after = try XCTUnwrap(second.first)
        let ticks = Int64(after.timestamp &- before.timestamp)
        let expected = Int64((after.capture - before.capture).nanoseconds) * 90 / 1_000_000
        XCTAssertGreaterThan(ticks, 0, "the second encoder's stamps follow the first's")
        XCTAssertLessThanOrEqual(abs(ticks - expected), 1, "\(ticks) ticks for \(after.capture - before.capture)")
    }
}
