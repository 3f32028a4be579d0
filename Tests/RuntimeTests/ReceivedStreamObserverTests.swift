@testable import PeerCore
import RTCBase
import RTPSession
@testable import Runtime
import XCTest

/// Freezes (METRICS.md: a gap between complete frames longer than max(3 x the sent frame
/// interval, interval + 150 ms)) are counted as frames arrive.
final class ReceivedStreamObserverTests: XCTestCase {
    private func frame(at milliseconds: Int, index: Int) -> ReceivedFrame {
        ReceivedFrame(mid: "0", kind: .audio, codec: .opus, data: [1], isKeyframe: false, rtpTimestamp: UInt32(index * 960),
                      firstArrival: Instant(nanoseconds: Int64(milliseconds) * 1_000_000),
                      lastArrival: Instant(nanoseconds: Int64(milliseconds) * 1_000_000))
    }

    private func record(_ observer: ReceivedStreamObserver) -> (count: Int, ms: Double) {
        let stats = ReceivedStreamStats(mid: "0", codec: .opus, rtp: ReceiveStreamStatistics(ssrc: 1), framesCompleted: 0,
                                        keyframesCompleted: 0, framesDropped: 0)
        let record = observer.record(stats)
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

    func testThinnedFramesBelowTheLimitAreNoFreeze() {
        // Every third frame lost: 60 ms gaps stay under 170 ms.
        let observer = ReceivedStreamObserver(codec: .opus, publishedResolution: nil, frameRate: 50)
        for index in 0..<60 { observer.observe(frame(at: index * 60, index: index * 3), captureTime: nil) }
        XCTAssertEqual(record(observer).count, 0)
    }
}
