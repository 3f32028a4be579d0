@testable import PeerCore
import RTCBase
import RTPSession
@testable import Runtime
import Scenario
import XCTest

/// `MuteObserver` and the receiver around it on known frames: a 30 fps stream stopped from
/// 1 s to 2 s, then black from 3 s to 4 s.
final class MuteObserverTests: XCTestCase {
    private let windows = [
        MuteObserver.Window(track: .video, from: .at(1000), until: .at(2000), mode: .stop, entry: 0, unmuteEntry: 1),
        MuteObserver.Window(track: .video, from: .at(3000), until: .at(4000), mode: .black, entry: 2, unmuteEntry: 3),
        MuteObserver.Window(track: .audio, from: .at(0), until: nil, mode: .stop, entry: 4, unmuteEntry: nil),
    ]

    /// Frame `index` of a 30 fps stream, arriving 10 ms after its capture (packets 5 ms apart).
    private func frame(_ index: Int, keyframe: Bool = false) -> ReceivedFrame {
        let captured = Int64(index) * 1000 / 30
        return ReceivedFrame(mid: "1", ssrc: 1, kind: .video, codec: .vp8, data: [0x10, 0, 0], isKeyframe: keyframe,
                             rtpTimestamp: UInt32(captured * 90), firstArrival: .at(captured + 5), lastArrival: .at(captured + 10))
    }

    /// Frames 0-29 and (the sender stopped) from 2.1 s on; the first after the unmute is a
    /// delta frame whose first packet is 105 ms after it, the picture 200 ms after it.
    func testTheUnmuteIsTimedAndTheStopIsNeitherFreezeNorLoss() throws {
        var observer = MuteObserver(windows: windows, isVideo: true)
        let sent = Array(0..<30) + Array(63...140)
        for index in sent { observer.observe(frame(index, keyframe: index == 66)) }
        let records = try XCTUnwrap(observer.records)
        XCTAssertEqual(records.map(\.entry), [0, 2], "the audio window is not this stream's")
        XCTAssertEqual(records[0].framesDuring, 0)
        XCTAssertEqual(records[0].firstPacketMs ?? -1, 105, accuracy: 0.001, "frame 63: captured at 2100 ms, first packet at 2105")
        XCTAssertEqual(records[0].firstFrameMs ?? -1, 210, accuracy: 0.001, "frame 66, the keyframe: captured at 2200 ms, complete at 2210")
        XCTAssertEqual(records[1].framesDuring, 22, "frames 98 to 119 arrive from 3250 ms to before 4000 ms")
        XCTAssertTrue(observer.explains(gapFrom: .at(976), to: .at(2110)))
        XCTAssertFalse(observer.explains(gapFrom: .at(2110), to: .at(2900)))
        XCTAssertEqual(observer.stopped(from: .at(10), to: .at(4676)).milliseconds, 1000)

        let stream = ReceivedStreamObserver(codec: .vp8, publishedResolution: nil, frameRate: 30, mutes: windows)
        for index in sent { stream.observe(frame(index, keyframe: index == 66), captureTime: nil) }
        let rtp = ReceivedStreamStats(mid: "1", codec: .vp8, rtp: ReceiveStreamStatistics(ssrc: 1), framesCompleted: 0,
                                      keyframesCompleted: 0, framesDropped: 0, framesDroppedLate: 0)
        let record = stream.record(rtp)
        XCTAssertEqual(record.freezeCount, 0, "the 1.1 s gap lies in the planned stop")
        XCTAssertEqual(record.frameLossPct, 3.0 / 111 * 100, accuracy: 0.01, "141 frames' timestamps less 30 unsent: 111 expected, 108 seen")
    }
}

private extension Instant {
    static func at(_ ms: Int64) -> Instant { Instant(nanoseconds: ms * 1_000_000) }
}
