import Foundation
import Report
import Runtime
import Scenario
import XCTest

/// Mutes and unmutes in real P2P calls through the built-in room server, in each mode,
/// measured by the receivers: frames inside the mute, the time to the first packet and
/// frame after the unmute, and no freeze or loss for the planned gap.
final class MuteRunTests: XCTestCase {
    private func run(videoMode: String, audioMode: String) throws -> CellReport {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mute-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let (report, outcome) = ScenarioRunner(loaded: try ScenarioLoader.load(text: """
        { name: "mute", duration_s: 7, target: { kind: "builtin-room" },
          groups: [{ role: "pair", count: 1, media: { video: { codec: "vp8", resolution: "320x180", fps: 30, bitrate_kbps: 300 } } }],
          timeline: [{ at_s: 2, action: "video.mute", mode: "\(videoMode)" }, { at_s: 2, action: "audio.mute", mode: "\(audioMode)" },
                     { at_s: 4.5, action: "video.unmute" }, { at_s: 4.5, action: "audio.unmute" }] }
        """), options: .init(folder: out, version: "test", progress: { _ in })).run()
        let cell = try XCTUnwrap(report.cells.first)
        XCTAssertEqual(outcome, .passed, "\(cell.peers.map { $0.failureReason ?? "ok" })")
        XCTAssertEqual(cell.peers.count, 2)
        return cell
    }

    /// The one mute record of `kind` at each receiver, checked for what every mode shows:
    /// an unmute timed to its first packet and frame (under a second), no freeze.
    private func mutes(_ cell: CellReport, _ kind: String, mode: String) throws -> [MuteRecord] {
        try cell.peers.map { peer in
            let stream = try XCTUnwrap(peer.streams.first { $0.kind == kind }, peer.id)
            let mute = try XCTUnwrap(stream.mutes?.first, "\(peer.id) \(kind)")
            XCTAssertEqual(stream.mutes?.count, 1)
            XCTAssertEqual(mute.mode, mode)
            XCTAssertEqual(mute.unmuteEntry, kind == "video" ? 2 : 3)
            let packet = try XCTUnwrap(mute.firstPacketMs, "\(peer.id) \(kind): no packet after the unmute")
            let frame = try XCTUnwrap(mute.firstFrameMs, "\(peer.id) \(kind): no frame after the unmute")
            XCTAssertGreaterThanOrEqual(frame, packet)
            XCTAssertLessThan(frame, 1000, "\(peer.id) \(kind)")
            XCTAssertEqual(stream.freezeCount, 0, "\(peer.id) \(kind): the planned gap is no freeze")
            XCTAssertLessThan(stream.frameLossPct, 5, "\(peer.id) \(kind): the planned gap is no loss")
            print("\(peer.id) \(kind) \(mode): frames during \(mute.framesDuring), unmute first packet \(packet) ms, "
                  + "first frame \(frame) ms, frames \(stream.framesReceived), frame loss \(stream.frameLossPct) %, packets \(stream.packetsReceived)/\(stream.packetsExpected)")
            return mute
        }
    }

    /// Video stopped, audio silent from 2 s to 4.5 s: no video frame arrives inside the
    /// mute (2.25 s after the 250 ms grace), Opus keeps its 50 frames a second; the
    /// cell's series shows no video frames in the second wholly inside it.
    func testVideoStopAndAudioSilence() throws {
        let cell = try run(videoMode: "stop", audioMode: "silence")
        for mute in try mutes(cell, "video", mode: "stop") { XCTAssertEqual(mute.framesDuring, 0) }
        for mute in try mutes(cell, "audio", mode: "silence") { XCTAssertGreaterThan(mute.framesDuring, 100, "50/s for 2.25 s: 112") }
        let inside = try XCTUnwrap(cell.timeSeries.first { abs($0.tS - 4) < 0.5 }, "\(cell.timeSeries.map(\.tS))")
        XCTAssertEqual(inside.fps ?? 0, 0, "video frames a second from 3 s to 4 s")
        print("series fps \(cell.timeSeries.map { "\($0.tS):\($0.fps ?? -1)" }), receive kbps \(cell.timeSeries.map(\.receiveKbps))")
        try checkActions(cell, videoMode: "stop")
    }

    /// Video black, audio stopped: black frames keep the 30 a second (2.25 s: 67), no audio
    /// frame arrives inside the mute.
    func testVideoBlackAndAudioStop() throws {
        let cell = try run(videoMode: "black", audioMode: "stop")
        for mute in try mutes(cell, "video", mode: "black") { XCTAssertGreaterThan(mute.framesDuring, 55, "30/s for 2.25 s: 67") }
        for mute in try mutes(cell, "audio", mode: "stop") { XCTAssertEqual(mute.framesDuring, 0) }
        let inside = try XCTUnwrap(cell.timeSeries.first { abs($0.tS - 4) < 0.5 }, "\(cell.timeSeries.map(\.tS))")
        XCTAssertGreaterThan(inside.fps ?? 0, 20, "black frames a second from 3 s to 4 s")
        print("series fps \(cell.timeSeries.map { "\($0.tS):\($0.fps ?? -1)" }), receive kbps \(cell.timeSeries.map(\.receiveKbps))")
        try checkActions(cell, videoMode: "black")
    }

    /// report.json's actions: four records, both sides acted on each, the unmutes carry
    /// both receivers' times.
    private func checkActions(_ cell: CellReport, videoMode: String) throws {
        let actions = try XCTUnwrap(cell.actions)
        XCTAssertEqual(actions.map(\.action), ["video.mute", "audio.mute", "video.unmute", "audio.unmute"])
        XCTAssertEqual(actions.map(\.peers), [2, 2, 2, 2])
        for unmute in actions[2...] {
            XCTAssertEqual(unmute.figures["unmute_first_frame_ms"]?.count, 2, "\(unmute)")
            XCTAssertEqual(unmute.figures["unmutes_missed"]?.count, 0, "\(unmute)")
        }
        XCTAssertEqual(actions[0].figures[videoMode == "stop" ? "frames_while_muted" : "frames_during_mute"].map { $0.count > 0 }, videoMode != "stop")
        for action in actions { print("\(action.action) at \(action.atS) s: \(action.figures.mapValues(\.text))") }
    }
}
