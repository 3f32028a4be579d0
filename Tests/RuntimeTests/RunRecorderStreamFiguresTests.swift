import Metrics
import Report
import Runtime
import XCTest

/// RunRecorder keeps audio and video figures apart (docs/metrics.md), from known stream records.
final class RunRecorderStreamFiguresTests: XCTestCase {
    /// 5 % of packets lost on both kinds; video NACKed all 50 back, audio (Opus, no NACK) none.
    private func peer(_ index: Int) -> PeerRecord {
        let video = StreamRecord(kind: "video", codec: "VP8", packetsReceived: 1_000, packetsExpected: 1_000, lossPct: 5,
                                 residualLossPct: 0, burstMax: 1, jitterMs: 2, framesReceived: 300, fps: 30, resolutions: ["640x360": 300],
                                 nacks: 50, jitterMaxMs: 4, lossEpisodes: 50, packetsNacked: 50, packetsRecovered: 50)
        let audio = StreamRecord(kind: "audio", codec: "opus", packetsReceived: 475, packetsExpected: 500, lossPct: 5,
                                 residualLossPct: 5, burstMax: 3, jitterMs: 8, jitterMaxMs: 12, lossEpisodes: 10)
        return PeerRecord(id: "p\(index)", group: 0, role: "player", startedAtMs: 0, endedAtMs: 10_000,
                          phases: ["setup_ms": 100], outcome: .completed, streams: [video, audio])
    }

    func testAudioOnlyResidualLossIsAudiosAndTheOldNamesReadVideo() throws {
        let recorder = RunRecorder(runStart: .zero)
        for index in 0..<10 { recorder.finish(peer(index)) }
        let metrics = recorder.metrics
        func value(_ text: String) throws -> Double? { metrics.value(at: try MetricAddress(parsing: text)) }
        XCTAssertEqual(try XCTUnwrap(try value("audio.residual_loss_pct.mean")), 5, accuracy: 0.01)
        XCTAssertEqual(try value("video.residual_loss_pct.max"), 0)
        XCTAssertEqual(try XCTUnwrap(try value("video.loss_pct.mean")), 5, accuracy: 0.01, "video's first pass lost 5 % too")
        XCTAssertEqual(try XCTUnwrap(try value("audio.burst_max.max")), 3, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(try value("video.burst_max.max")), 1, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(try value("audio.jitter_max_ms.max")), 12, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(try value("audio.loss_episodes.mean")), 10, accuracy: 0.01)
        XCTAssertEqual(metrics.histograms[.videoResidualLossPct]?.count, 10, "one value per video stream, no audio among them")
        XCTAssertEqual(metrics.histograms[.audioResidualLossPct]?.count, 10)
        XCTAssertEqual(metrics.histograms[.videoFrameLossPct]?.count, 10, "frame loss: the 10 video streams")
        XCTAssertEqual(metrics.counters[.framesUnknownSize]?.value, 0, "every frame sized, and the 0 is kept")
        // The old name is the video figure, so it judges video's recovery, as documented.
        XCTAssertEqual(try MetricAddress(parsing: "residual_loss_pct.max"), MetricAddress(.videoResidualLossPct, .max))
        XCTAssertTrue(try Threshold(parsing: "residual_loss_pct.max < 1").evaluate(metrics).passed)
        XCTAssertFalse(try Threshold(parsing: "audio.residual_loss_pct.max < 1").evaluate(metrics).passed)
    }
}

extension RunRecorderStreamFiguresTests {
    func testFramesOfUnknownSizeAreCountedFromTheVideoStreams() {
        let recorder = RunRecorder(runStart: .zero)
        let video = StreamRecord(kind: "video", codec: "H264", packetsReceived: 10, packetsExpected: 10, lossPct: 0, residualLossPct: 0,
                                 burstMax: 0, jitterMs: 1, framesReceived: 300, resolutions: ["640x360": 240, "320x180": 45])
        recorder.finish(PeerRecord(id: "p", group: 0, role: "player", startedAtMs: 0, endedAtMs: 1, outcome: .completed, streams: [video]))
        XCTAssertEqual(recorder.metrics.value(at: MetricAddress(.framesUnknownSize)), 15)
    }
}
