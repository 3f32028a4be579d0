import Foundation
import Report
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// `rtcswarm run` against the python-socketio room server (Tests/Interop/room_server.py,
/// the independent reference of the room protocol): rtcswarm peers calling each other
/// through it, and rtcswarm calling an aiortc peer that joins the same room through it.
final class PythonRoomServerRunTests: XCTestCase {
    private func startServer() throws -> (ManagedProcess, String) {
        let server = try ManagedProcess(try PythonPeers.python(), [PythonPeers.script("room_server.py"), "other_joined"])
        let port = try XCTUnwrap(server.firstLine().flatMap { UInt16($0) }, "the python server did not print its port: \(server.text)")
        return (server, "http://127.0.0.1:\(port)")
    }

    func testRtcswarmPeersCallEachOtherThroughThePythonSocketIOServer() throws {
        let cell = InteropRecorder.cell(self, target: "python-socketio", version: TargetVersion.pip("python-socketio"),
                                        role: "room server for `rtcswarm run` pairs", codec: "VP8+Opus")
        let (server, url) = try startServer()
        defer { server.stop() }
        let (report, outcome) = try AiortcCall.run("""
        { name: "python-room", duration_s: 5, target: { kind: "room", url: "\(url)" },
          groups: [{ role: "pair", count: 2, arrival: { rate_per_s: 10 },
                     media: { video: { resolution: "320x180", fps: 30, bitrate_kbps: 300 } } }] }
        """)
        cell.measured(report)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(outcome, .passed, "\(peers.map { $0.failureReason ?? "ok" })")
        XCTAssertEqual(peers.count, 4)
        for peer in peers {
            XCTAssertEqual(peer.outcome, .completed, peer.failureReason ?? "")
            let video = try XCTUnwrap(peer.streams.first { $0.kind == "video" })
            XCTAssertGreaterThan(video.framesReceived, 90, "about 4.5 s at 30 fps")
            XCTAssertEqual(video.resolutions.keys.sorted(), ["320x180"])
            XCTAssertEqual(video.lossPct, 0)
        }
    }

    /// `joinFirst`: the aiortc side joins first (told other_joined, aiortc offers), or a
    /// second after rtcswarm (rtcswarm offers).
    private func callAiortc(joinFirst: Bool, data: String? = nil) throws -> (summary: [String: Any], peer: PeerRecord) {
        let role = joinFirst ? "offerer via the python-socketio room server (rtcswarm answers)"
            : "answerer via the python-socketio room server (rtcswarm offers)"
        let cell = InteropRecorder.cell(self, target: "aiortc", version: TargetVersion.pip("aiortc"), role: role,
                                        codec: data == nil ? "VP8+Opus" : "VP8+Opus + data channel")
        let (server, url) = try startServer()
        defer { server.stop() }
        let (summary, peer) = try AiortcCall.call(
            bridge: [PythonPeers.script("aiortc_room_peer.py"), url, "room-0-0", "--delay", joinFirst ? "0" : "1"],
            target: "{ kind: \"room\", url: \"\(url)\" }", seconds: 7, cell: cell, data: data) { aiortc in
            if joinFirst { XCTAssertNotNil(aiortc.next(ofType: ["joined"], timeout: 15), "aiortc did not join: \(aiortc.standardError)") }
        }
        // The setup clock starts when there is someone to call: when rtcswarm joined first
        // it waited about a second for aiortc (its --delay), and that is partner_wait_ms.
        let wait = try XCTUnwrap(peer.phases["partner_wait_ms"])
        let setup = try XCTUnwrap(peer.phases["setup_ms"])
        if joinFirst {
            XCTAssertEqual(wait, 0, "aiortc was in the room first and offered")
        } else {
            XCTAssertGreaterThan(wait, 900, "aiortc joins 1 s after rtcswarm")
            XCTAssertLessThan(setup, wait, "setup_ms leaves the wait out (it was \(setup) ms)")
        }
        return (summary, peer)
    }

    func testRtcswarmOffersToAnAiortcPeerThroughThePythonSocketIOServer() throws {
        let (summary, _) = try callAiortc(joinFirst: false)
        XCTAssertEqual(summary["role"] as? String, "answerer")
    }

    func testAnAiortcPeerOffersToRtcswarmThroughThePythonSocketIOServer() throws {
        let (summary, _) = try callAiortc(joinFirst: true)
        XCTAssertEqual(summary["role"] as? String, "offerer")
    }

    /// A scenario's data channel toward aiortc (issue 20): rtcswarm offers the channel
    /// beside its media, aiortc echoes every message, and aiortc's own counts equal
    /// rtcswarm's.
    func testAScenariosDataChannelEchoesThroughAnAiortcPeer() throws {
        let size = 500
        let (summary, peer) = try callAiortc(joinFirst: false,
                                             data: "{ channels: [{ label: \"game\" }], message: { size_bytes: \(size), rate_per_s: 20 } }")
        let channel = try XCTUnwrap(peer.dataChannels?.first, "rtcswarm's record of its channel")
        let atAiortc = try XCTUnwrap((summary["data_channels"] as? [String: [String: Int]])?["game"], "aiortc saw the channel: \(summary)")
        print("aiortc data channel: rtcswarm sent \(channel.messagesSent), got \(channel.messagesReceived) back, open \(channel.openMs ?? -1) ms; "
              + "aiortc received \(atAiortc["received"] ?? -1), sent \(atAiortc["sent"] ?? -1)")
        XCTAssertGreaterThan(channel.messagesSent, 40, "20 a second until the drain 3 s before the end")
        XCTAssertLessThanOrEqual(channel.messagesSent, 20 * (7 - 3) + 1,
                                 "the drain holds with an external partner too: the last echo has 3 s to come back")
        XCTAssertEqual(channel.messagesReceived, channel.messagesSent, "every message came back")
        XCTAssertEqual(channel.messagesLost, 0)
        XCTAssertEqual(atAiortc["received"], channel.messagesSent, "aiortc's count of what arrived = rtcswarm's sent")
        XCTAssertEqual(atAiortc["sent"], channel.messagesReceived)
        XCTAssertEqual(atAiortc["bytes_received"], channel.messagesSent * size)
    }
}
