import RTP
import EventLoop
import Foundation
import Media
import Net
import PeerCore
import RTCBase
import SDP
import WebRTCTestKit
import XCTest

/// rtcswarm's peer (PeerCore on a loopback UDP socket) against the Pion test server's echo
/// peer (POST /echo), H.264 and VP8 with Opus: Pion counts every frame rtcswarm sends at
/// its size, and every frame comes back to rtcswarm at that size. With 5 % of what
/// rtcswarm receives lost, its NACKs all reach Pion, whose resends repair the stream.
final class PionEchoTests: XCTestCase {
    static let frames = 60

    func testPionEchoesEveryH264Frame() throws {
        try echo(codec: .h264, capability: .h264(), cellCodec: "H.264+Opus")
    }

    func testPionEchoesEveryVP8Frame() throws {
        try echo(codec: .vp8, capability: .vp8(), cellCodec: "VP8+Opus")
    }

    func testPionEchoRepairsH264ThroughFivePercentLoss() throws {
        try echo(codec: .h264, capability: .h264(), cellCodec: "H.264+Opus", lossPct: 5)
    }

    func testPionEchoRepairsVP8ThroughFivePercentLoss() throws {
        try echo(codec: .vp8, capability: .vp8(), cellCodec: "VP8+Opus", lossPct: 5)
    }

    private func echo(codec: Codec, capability: CodecCapability, cellCodec: String, lossPct: Double = 0) throws {
        let role = lossPct == 0 ? "echo peer (rtcswarm offers)" : "echo peer (rtcswarm offers), 5 % loss received (loss shown: residual)"
        let cell = InteropRecorder.cell(self, target: "Pion", version: TargetVersion.pion, role: role, codec: cellCodec)
        let pion = try PionServer()
        defer { pion.stop() }
        let loop = try EventLoop()
        let local = try LoopPeer(loop: loop, role: .offerer, direction: .sendrecv, seed: 22, video: capability)
        let started = loop.now()
        local.drive()
        XCTAssertTrue(loop.run(until: { local.peer.isGatheringComplete }, timeout: .seconds(5)), "gathering")
        let endpoint = Endpoint(scheme: .http, host: "127.0.0.1", port: pion.port, path: "/echo")
        let request = HTTPRequest(method: .post, endpoint: endpoint, headers: ["Content-Type": "application/sdp"],
                                  body: Array(try local.peer.createOffer(now: loop.now()).utf8))
        let response = try XCTUnwrap(LoopbackHTTP.send(request, to: endpoint, timeout: .seconds(5)), "Pion answered the offer")
        XCTAssertEqual(response.status, 201, response.bodyText)
        try local.peer.setRemoteAnswer(response.bodyText, now: loop.now())
        local.drive()
        XCTAssertTrue(loop.run(until: { local.connected || local.failure != nil }, timeout: .seconds(10)), "\(local.events.suffix(5))\n\(pion.log.suffix(1500))")
        guard local.connected else { throw ExternalToolError("rtcswarm and Pion's echo peer did not connect") }
        let setup = loop.now() - started
        local.mediaLossPct = lossPct

        let size = Resolution.p360
        let sent = try local.sendPattern(codec, size: size, frames: Self.frames)
        XCTAssertTrue(loop.run(until: { local.videoFramesReceived >= sent }, timeout: .seconds(3)) || lossPct > 0)
        let back = local.events.compactMap { if case .frame(let frame) = $0, frame.kind == .video { frame } else { nil } }
        let sizes = Set(back.filter(\.isKeyframe).compactMap { try? BitstreamInspector.inspect($0.data, codec: codec).resolution })
        let stats = try PionStats.read(pion)
        let session = try XCTUnwrap(stats.sessions.first { $0.role == "echo" })
        let received = try XCTUnwrap(session.received?.first { $0.kind == "video" }, "Pion's echo peer counted video")
        let echoed = try XCTUnwrap(local.peer.stats(now: loop.now()).received.first { $0.codec.isVideo }).rtp
        let served = try XCTUnwrap(session.sent.first { $0.kind == "video" })
        let repair = "\(echoed.nacksSent) NACKs (Pion got \(served.feedbackReceived.nackPackets), resent \(served.retransmissions))"
        print("pion echo \(codec.rawValue), \(lossPct) % loss: sent \(sent), Pion counted \(received.frames) \(received.framesByResolution), "
              + "\(back.count) came back; \(local.mediaDropped) datagrams dropped, \(repair), residual \(echoed.residualLossPercent) %; "
              + "setup \(setup.milliseconds) ms")
        XCTAssertEqual(sent, Self.frames)
        XCTAssertEqual(received.frames, sent)
        XCTAssertEqual(received.framesByResolution, [size.description: sent], "every frame at the size sent")
        XCTAssertEqual(sizes, [size])
        XCTAssertEqual(echoed.nacksSent, served.feedbackReceived.nackPackets, "every NACK reached Pion")
        if lossPct == 0 {
            XCTAssertEqual(back.count, sent, "every frame came back")
            XCTAssertEqual(echoed.nacksSent, 0)
        } else {
            XCTAssertGreaterThan(local.mediaDropped, 0)
            XCTAssertGreaterThan(echoed.nacksSent, 0)
            XCTAssertGreaterThan(served.retransmissions, 0)
            XCTAssertLessThanOrEqual(echoed.residualLossPercent, 0.5)
            XCTAssertGreaterThanOrEqual(Double(back.count), Double(sent) * 0.98, "frame loss <= 2 %")
        }
        cell.measured(setupMs: setup.milliseconds,
                      lossPct: lossPct == 0 ? InteropCell.lossPct(sent: sent, received: back.count) : echoed.residualLossPercent,
                      resolution: size.description)
        local.peer.close(now: loop.now())
        local.drive()
    }
}
