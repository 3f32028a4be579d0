import RTP
import EventLoop
@testable import PeerCore
import RTCBase
import RTPSession
@testable import Runtime
import XCTest

/// Freezes (METRICS.md: a gap between complete frames longer than max(3 x the sent frame
/// interval, interval + 150 ms)) are counted as frames arrive.
final class ReceivedStreamObserverTests: XCTestCase {
    private func frame(at milliseconds: Int, index: Int) -> ReceivedFrame {
        ReceivedFrame(mid: "0", ssrc: 1, kind: .audio, codec: .opus, data: [1], isKeyframe: false, rtpTimestamp: UInt32(index * 960),
                      firstArrival: Instant(nanoseconds: Int64(milliseconds) * 1_000_000),
                      lastArrival: Instant(nanoseconds: Int64(milliseconds) * 1_000_000))
    }

    private func stats(_ codec: Codec) -> ReceivedStreamStats {
        ReceivedStreamStats(mid: "0", codec: codec, rtp: ReceiveStreamStatistics(ssrc: 1), framesCompleted: 0,
                            keyframesCompleted: 0, framesDropped: 0, framesDroppedLate: 0)
    }

    private func record(_ observer: ReceivedStreamObserver) -> (count: Int, ms: Double) {
        let record = observer.record(stats(.opus))
        return (record.freezeCount, record.freezeMs)
    }

    func testAGapAboveTheLimitIsOneFreezeOfItsLength() {
        // 50 frames a second: the limit is max(60 ms, 170 ms) = 170 ms.
        let observer = ReceivedStreamObserver(codec: .opus, publishedResolution: nil, frameRate: 50)
        var t = 0
        for index in 0..<100 {
            observer.observe(frame(at: t, index: index), captureTime: nil)
            t += index == 49 ? 500 : 20
        }
        let freezes = record(observer)
        XCTAssertEqual(freezes.count, 1)
        XCTAssertEqual(freezes.ms, 500, accuracy: 0.001)
    }

    /// Issue 19 item 3: a gap that a stretch when the receiving loop ran late explains is
    /// the harness's freeze, kept out of the freezes and their time; one that overlaps
    /// none, or that stays over the limit without the stretch, stays a freeze.
    func testAFreezeOverlappingALoopStallIsTheHarnesses() {
        // 30 frames a second: the limit is max(100 ms, 183 ms) = 183 ms.
        let stalls = LoopStalls()
        stalls.note(due: Instant(nanoseconds: 1_000_000_000), woke: Instant(nanoseconds: 1_290_000_000))
        stalls.note(due: Instant(nanoseconds: 3_700_000_000), woke: Instant(nanoseconds: 3_760_000_000))
        let observer = ReceivedStreamObserver(codec: .vp8, publishedResolution: nil, frameRate: 30, stalls: stalls)
        var t = 0
        for index in 0..<120 {
            observer.observe(ReceivedFrame(mid: "0", ssrc: 2, kind: .video, codec: .vp8, data: [1], isKeyframe: false,
                                           rtpTimestamp: UInt32(index * 3_000), firstArrival: Instant(nanoseconds: Int64(t) * 1_000_000),
                                           lastArrival: Instant(nanoseconds: Int64(t) * 1_000_000)), captureTime: nil)
            // 990 ms -> 1290 ms is 290 ms stalled (10 ms left); 2247 ms -> 2647 ms spans no
            // stall; 3604 ms -> 4004 ms holds a 60 ms stall, and 340 ms without it.
            t += index == 30 ? 300 : index == 60 || index == 90 ? 400 : 33
        }
        let record = observer.record(stats(.vp8))
        XCTAssertEqual(record.harnessFreezeCount, 1)
        XCTAssertEqual(record.freezeCount, 2)
        XCTAssertEqual(record.freezeMs, 800, accuracy: 0.001, "the harness's 300 ms are not in the freeze time")
    }

    func testThinnedFramesBelowTheLimitAreNoFreeze() {
        // Every third frame lost: 60 ms gaps stay under 170 ms.
        let observer = ReceivedStreamObserver(codec: .opus, publishedResolution: nil, frameRate: 50)
        for index in 0..<60 { observer.observe(frame(at: index * 60, index: index * 3), captureTime: nil) }
        XCTAssertEqual(record(observer).count, 0)
    }

    /// A VP8 frame (RFC 6386 9.1): a key frame carries its size after the start code.
    private func vp8(at index: Int, keyframeOf size: (Int, Int)?) -> ReceivedFrame {
        var data: [UInt8] = [size == nil ? 1 : 0, 0, 0]
        if let (width, height) = size {
            data += [0x9D, 0x01, 0x2A, UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)]
        }
        let at = Instant(nanoseconds: Int64(index) * 33_000_000)
        return ReceivedFrame(mid: "0", ssrc: 2, kind: .video, codec: .vp8, data: data, isKeyframe: size != nil,
                             rtpTimestamp: UInt32(index * 3000), firstArrival: at, lastArrival: at)
    }

    /// Issue 19 item 8: a stream rtcswarm did not publish is judged against its first
    /// keyframe's size, so a partner sending 320x240 has 100 % survival, and a later switch
    /// to 160x120 for a quarter of the frames shows as 75 %.
    func testWithoutAPublishedSizeTheFirstKeyframeSetsTheExpectedOne() {
        let observer = ReceivedStreamObserver(codec: .vp8, publishedResolution: nil, frameRate: 30)
        for index in 0..<30 { observer.observe(vp8(at: index, keyframeOf: index == 0 ? (320, 240) : nil), captureTime: nil) }
        XCTAssertEqual(observer.resolutionSurvival, 100)
        for index in 30..<40 { observer.observe(vp8(at: index, keyframeOf: index == 30 ? (160, 120) : nil), captureTime: nil) }
        XCTAssertEqual(observer.expectedResolution, Resolution(width: 320, height: 240))
        XCTAssertEqual(observer.resolutionSurvival, 75)
        XCTAssertNil(observer.neverAtExpectedSize)
    }

    /// Frames are counted by the size of the last keyframe, across a switch and back.
    func testFramesAreCountedAtEachSizeAcrossASwitchAndBack() {
        let observer = ReceivedStreamObserver(codec: .vp8, publishedResolution: nil, frameRate: 30)
        let keyframes: [Int: (Int, Int)] = [0: (320, 240), 12: (320, 240), 20: (160, 120), 27: (320, 240)]
        for index in 0..<40 { observer.observe(vp8(at: index, keyframeOf: keyframes[index]), captureTime: nil) }
        XCTAssertEqual(observer.resolutions, [Resolution(width: 320, height: 240): 33, Resolution(width: 160, height: 120): 7])
        XCTAssertEqual(observer.frames, 40)
    }

    /// A stream that never had the published size has survival 0 and says so: the peer
    /// fails with that reason instead of passing.
    func testAStreamNeverAtThePublishedSizeIsNamedWithTheSizesSeen() {
        let observer = ReceivedStreamObserver(codec: .vp8, publishedResolution: Resolution(width: 320, height: 180), frameRate: 30)
        for index in 0..<10 { observer.observe(vp8(at: index, keyframeOf: index == 0 ? (320, 240) : nil), captureTime: nil) }
        XCTAssertEqual(observer.resolutionSurvival, 0)
        XCTAssertEqual(observer.neverAtExpectedSize, "video arrived only at 320x240, never at the expected 320x180")
    }

    /// A switch to 160x120 planned at 990 ms (frame 30): frames 31 to 35 never arrive, the
    /// new size's keyframe is frame 36 (1188 ms). switch_ms 198; the window runs to a second
    /// after that frame (frame 66), so it lost 5 frames and its longest gap is 30 -> 36.
    func testASwitchReportsItsTimeTheFramesLostAndTheGapAroundIt() throws {
        let change = ReceivedStreamObserver.SizeChange(at: Instant(nanoseconds: 990_000_000), size: Resolution(width: 160, height: 120), entry: 3)
        let observer = ReceivedStreamObserver(codec: .vp8, publishedResolution: Resolution(width: 320, height: 240), frameRate: 30,
                                              sizeChanges: [change])
        for index in 0..<100 where !(31...35).contains(index) {
            observer.observe(vp8(at: index, keyframeOf: index == 0 ? (320, 240) : index == 36 ? (160, 120) : nil), captureTime: nil)
        }
        let switched = try XCTUnwrap(observer.switches?.first)
        XCTAssertEqual(switched.entry, 3)
        XCTAssertEqual(switched.to, "160x120")
        XCTAssertEqual(try XCTUnwrap(switched.switchMs), 198, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(switched.freezeMs), 198, accuracy: 0.001)
        XCTAssertEqual(switched.framesLost, 5)
        XCTAssertEqual(observer.resolutionSurvival, 100)
    }

    /// Frames missing a second and more after the first new-size frame are outside the
    /// switch's window: it lost none.
    func testLossAfterTheSwitchWindowIsNotTheSwitchs() throws {
        let change = ReceivedStreamObserver.SizeChange(at: Instant(nanoseconds: 990_000_000), size: Resolution(width: 160, height: 120), entry: 0)
        let observer = ReceivedStreamObserver(codec: .vp8, publishedResolution: Resolution(width: 320, height: 240), frameRate: 30,
                                              sizeChanges: [change])
        for index in 0..<100 where !(70...75).contains(index) {
            observer.observe(vp8(at: index, keyframeOf: index == 0 ? (320, 240) : index == 31 ? (160, 120) : nil), captureTime: nil)
        }
        let switched = try XCTUnwrap(observer.switches?.first)
        XCTAssertEqual(try XCTUnwrap(switched.switchMs), 33, accuracy: 0.001)
        XCTAssertEqual(switched.framesLost, 0)
        XCTAssertEqual(try XCTUnwrap(switched.freezeMs), 33, accuracy: 0.001)
    }
}
