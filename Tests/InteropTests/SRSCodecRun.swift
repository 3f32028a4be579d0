import Foundation
import Report
import WebRTCTestKit
import XCTest

/// One publisher and two players of a codec SRS takes only when asked (`?codec=hevc`,
/// `?codec=av1`), 10 s of 640x360 at 15 fps from a shipped scenario, checked the same way
/// for every such codec: every peer connects, the publisher negotiates `codec`, and each
/// player keeps the publisher's frame rate, reads the published size from the bitstream of
/// every keyframe (100 % survival), decodes frames and reads the block code back from
/// every decoded picture. The figures are printed and recorded in the interop cell.
enum SRSCodecRun {
    static let resolution = "640x360"

    /// Runs `scenario` over `api` (`target.srs.api`) as the interop cell `role` × `cell`.
    static func publishAndPlay(_ test: XCTestCase, scenario: String, codec: String, api: String, role: String, cell: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let recorded = InteropRecorder.cell(test, target: "SRS", role: role, codec: cell)
        let run = try SRSRun.run(scenario, url: SRSUnderTest.sharedURL(),
                             environment: ["DURATION_S": "10", "PLAYERS": "2", "FPS": "15", "RESOLUTION": resolution],
                             overrides: ["target.srs.api=\(api)"])
        recorded.measured(run.report)
        XCTAssertEqual(run.peers.count, 3, file: file, line: line)
        XCTAssertEqual(run.peers.filter { $0.outcome == .failed }.count, 0, run.failures, file: file, line: line)
        let publisher = try XCTUnwrap(run.peers.first { $0.role == "publisher" }, file: file, line: line)
        let sent = try XCTUnwrap(publisher.sentStreams?.first { $0.kind == "video" }, file: file, line: line)
        XCTAssertEqual(sent.codec, codec, "the codec the publisher negotiated with SRS", file: file, line: line)
        let sentFps = Double(sent.framesSent) * 1000 / (publisher.endedAtMs - publisher.startedAtMs)
        let videos = try run.playerVideo(file: file, line: line)
        for video in videos {
            XCTAssertEqual(video.codec, codec, file: file, line: line)
            XCTAssertGreaterThan(video.framesReceived, 40, "frames at each player", file: file, line: line)
            XCTAssertGreaterThan(video.fps, sentFps * 0.85, "the publisher sent \(sentFps) frames/s", file: file, line: line)
            XCTAssertEqual(video.resolutions.keys.sorted(), [resolution], "sizes the player read from the bitstream", file: file, line: line)
            XCTAssertEqual(video.resolutionSurvival, 100, file: file, line: line)
            XCTAssertGreaterThan(video.framesDecoded ?? 0, 0, "the sampled decode decoded the received frames", file: file, line: line)
            XCTAssertEqual(video.frameCodesRead, video.framesDecoded, "block code read back from every decoded picture", file: file, line: line)
        }
        let first = run.players.compactMap { $0.phases["first_frame_ms"] }
        let setup = run.peers.compactMap { $0.phases["setup_ms"] }
        print("srs \(codec) \(api) \(resolution): sent \(sent.framesSent) at \(sentFps) fps, received \(videos.map(\.framesReceived)), "
              + "sized \(videos.map { $0.resolutions[resolution] ?? 0 }), fps \(videos.map(\.fps)), "
              + "decoded \(videos.map { $0.framesDecoded ?? 0 }), codes read \(videos.map { $0.frameCodesRead ?? 0 }), "
              + "packets \(videos.map(\.packetsReceived)) of \(videos.map(\.packetsExpected)), loss \(videos.map(\.lossPct)) %, "
              + "first frame \(first) ms, setup \(setup) ms")
    }
}
