import RTP
import EventLoop
import Foundation
import Media
import PeerCore
import RTCBase
import SCTP
import SDP
import WebRTCTestKit
import XCTest

/// rtcswarm's peer (PeerCore on a loopback UDP socket) against aiortc_peer.py, both roles,
/// VP8 + Opus and H.264 + Opus: aiortc decodes every frame rtcswarm sends at its
/// resolution, and rtcswarm reassembles every frame aiortc sends (issue 3).
final class AiortcPeerCoreInteropTests: XCTestCase {
    static let frames = 30

    func testRtcswarmOffererAndAiortcAnswererExchangeEveryVP8Frame() throws {
        try call(rtcswarm: .offerer, codec: .vp8, size: .p180)
    }

    func testAiortcOffererAndRtcswarmAnswererExchangeEveryVP8Frame() throws {
        try call(rtcswarm: .answerer, codec: .vp8, size: .p180)
    }

    func testRtcswarmOffererAndAiortcAnswererExchangeEveryH264Frame() throws {
        try call(rtcswarm: .offerer, codec: .h264, size: .p360)
    }

    func testAiortcOffererAndRtcswarmAnswererExchangeEveryH264Frame() throws {
        try call(rtcswarm: .answerer, codec: .h264, size: .p360)
    }

    /// aiortc offers audio, video and a data channel; rtcswarm declines the data channel
    /// (port 0, out of BUNDLE, with its transport lines) and aiortc takes the answer: every
    /// frame still flows both ways. aiortc 1.16 keeps the declined section's own ICE
    /// transport waiting for candidates, so its connectionState stays "connecting".
    func testAiortcOffererWithADataChannelTakesAnAnswerThatDeclinesIt() throws {
        let (_, summary) = try call(rtcswarm: .answerer, codec: .vp8, size: .p180, aiortcDataChannel: "chat")
        XCTAssertFalse(summary.states.contains("failed"), "\(summary.states)")
    }

    /// rtcswarm accepts aiortc's data channel: SCTP runs over the DTLS of the media, both
    /// sides send INIT, and aiortc's "chat" channel opens on rtcswarm by DCEP, next to
    /// every frame both ways.
    func testAiortcOffererOpensADataChannelThatRtcswarmAccepts() throws {
        let (local, summary) = try call(rtcswarm: .answerer, codec: .vp8, size: .p180, aiortcDataChannel: "chat",
                                        acceptDataChannel: true)
        let data = local.events.compactMap { if case .dataChannel(let event) = $0 { event } else { nil } }
        XCTAssertEqual(data.first, .associationUp)
        XCTAssertTrue(data.contains { if case .channelOpen(let channel) = $0 { channel.options.label == "chat" && channel.id == 1 } else { false } },
                      "aiortc (DTLS server) opens odd stream 1: \(data)")
        XCTAssertTrue(summary.states.contains("connected"), "with the data channel accepted aiortc connects: \(summary.states)")
    }

    /// rtcswarm offers a data channel section next to audio and video; aiortc accepts it
    /// and acks the channel rtcswarm opens.
    func testRtcswarmOffererWithADataChannelOpensOneToAiortc() throws {
        let (local, _) = try call(rtcswarm: .offerer, codec: .vp8, size: .p180, acceptDataChannel: true)
        let opened = local.events.compactMap { if case .dataChannel(.channelOpen(let channel)) = $0 { channel } else { nil } }
        XCTAssertEqual(opened.map(\.options.label), ["from-rtcswarm"])
        XCTAssertEqual(opened.first?.id, local.peer.dtlsRole == .client ? 0 : 1)
    }

    /// Both peers relay-only through coturn on loopback: rtcswarm offers only its relayed
    /// candidate, and media flows through the relay both ways.
    func testRelayOnlyRtcswarmAndAiortcCallThroughCoturn() throws {
        _ = try PythonPeers.python()
        let coturn = try Coturn()
        defer { coturn.stop() }
        let turn = IceServer.turn(SocketAddress(ipv4: 127, 0, 0, 1, port: coturn.port), username: Coturn.username,
                                  password: Coturn.password)
        let (local, _) = try call(rtcswarm: .offerer, codec: .vp8, size: .p180, turn: (turn, coturn.address))
        XCTAssertEqual(local.peer.stats(now: local.loop.now()).ice.selectedLocalType, .relay)
    }

    @discardableResult
    private func call(rtcswarm role: PeerRole, codec: Codec, size: Resolution,
                      turn: (server: IceServer, address: String)? = nil,
                      aiortcDataChannel: String? = nil, acceptDataChannel: Bool = false) throws -> (LoopPeer, AiortcSummary) {
        let aiortcRole = turn != nil ? "answerer, both relay-only through coturn (rtcswarm offers)"
            : role == .offerer ? "answerer (rtcswarm offers)" : "offerer (rtcswarm answers)"
        let cell = InteropRecorder.cell(self, target: "aiortc", version: TargetVersion.pip("aiortc"),
                                        role: aiortcRole + (aiortcDataChannel == nil ? "" : acceptDataChannel ? ", with a data channel" : ", offers a data channel rtcswarm declines"),
                                        codec: codec == .h264 ? "H.264+Opus" : "VP8+Opus")
        let python = try PythonPeers.python()
        let loop = try EventLoop()
        let local = try LoopPeer(loop: loop, role: role, direction: .sendrecv, seed: role == .offerer ? 41 : 42,
                                 video: codec == .h264 ? .h264() : .vp8(), iceServers: turn.map { [$0.server] } ?? [],
                                 relayOnly: turn != nil, dataChannels: acceptDataChannel)
        var options = AiortcPeer.Options(
            role: role == .offerer ? .answerer : .offerer, video: codec.rawValue.lowercased(), frames: Self.frames,
            width: size.width, height: size.height, turn: turn?.address)
        options.dataChannel = aiortcDataChannel
        let aiortc = try AiortcPeer(python: python, script: PythonPeers.script("aiortc_peer.py"), options: options)
        defer { aiortc.stop() }

        let started = loop.now()
        // Vanilla ICE towards aiortc: the description carries every candidate.
        local.drive()
        XCTAssertTrue(loop.run(until: { local.peer.isGatheringComplete }, timeout: .seconds(5)), "gathering")
        let ours: String
        if role == .offerer {
            ours = try local.peer.createOffer(now: loop.now())
            try aiortc.setRemoteDescription(ours)
            try local.peer.setRemoteAnswer(aiortc.localDescription(), now: loop.now())
        } else {
            try local.peer.setRemoteOffer(aiortc.localDescription(), now: loop.now())
            ours = try local.peer.createAnswer(now: loop.now())
            try aiortc.setRemoteDescription(ours)
        }
        if aiortcDataChannel != nil {
            let answer = try SessionDescription.parse(ours)
            XCTAssertEqual(answer.media.map(\.kind.description), ["audio", "video", "application"])
            XCTAssertEqual(answer.media.map(\.port).last == 0, !acceptDataChannel, ours)
            XCTAssertEqual(answer.bundleMids, acceptDataChannel ? ["0", "1", "2"] : ["0", "1"])
        }
        let offered = AiortcInteropTests.candidates(ours)
        XCTAssertFalse(offered.isEmpty, ours)
        for candidate in offered {
            if turn == nil {
                XCTAssertEqual(candidate.address, "127.0.0.1", candidate.line)
            } else {
                XCTAssertEqual(candidate.type, "relay", "relay-only: the host address stays private; \(candidate.line)")
                XCTAssertTrue(candidate.port.map(Coturn.relayPorts.contains) ?? false, candidate.line)
            }
        }
        local.drive()
        XCTAssertTrue(loop.run(until: { local.connected || local.failure != nil }, timeout: .seconds(10)),
                      "not connected: \(local.events.suffix(5))\n\(aiortc.process.standardError.suffix(1500))")
        guard local.connected else { throw ExternalToolError("rtcswarm and aiortc did not connect") }
        let setup = loop.now() - started
        if acceptDataChannel {
            // rtcswarm opens a channel of its own once the association is up (DCEP to aiortc).
            let dataEvents = { local.events.compactMap { if case .dataChannel(let event) = $0 { event } else { nil } } }
            XCTAssertTrue(loop.run(until: { dataEvents().contains(.associationUp) }, timeout: .seconds(5)), "SCTP association")
            let id = try local.peer.openDataChannel(DataChannelOptions(label: "from-rtcswarm"), now: loop.now())
            local.drive()
            XCTAssertTrue(loop.run(until: {
                dataEvents().contains { if case .channelOpen(let channel) = $0 { channel.id == id } else { false } }
            }, timeout: .seconds(5)), "aiortc acked rtcswarm's DATA_CHANNEL_OPEN")
        }

        let sent = try local.sendPattern(codec, size: size, frames: Self.frames)
        XCTAssertTrue(loop.run(until: { local.videoFramesReceived >= Self.frames }, timeout: .seconds(5)))
        // aiortc reports once it has decoded what we sent, after lingering half a second.
        _ = loop.run(until: { false }, timeout: .milliseconds(1200))
        let summary = try aiortc.summary()

        let received = local.events.compactMap { if case .frame(let frame) = $0 { frame } else { nil } }
        let videoIn = received.filter { $0.kind == .video }
        let sizes = Set(videoIn.filter(\.isKeyframe).compactMap { try? BitstreamInspector.inspect($0.data, codec: codec).resolution })
        XCTAssertEqual(sent, Self.frames)
        XCTAssertNil(summary.error, aiortc.process.standardError.suffix(1500).description)
        XCTAssertEqual(summary.codecs["video"], "video/\(codec.rawValue)")
        XCTAssertEqual(summary.videoFramesDecoded, sent, "aiortc decoded every frame rtcswarm sent")
        XCTAssertEqual(summary.videoResolutions, [size.description: sent])
        XCTAssertEqual(videoIn.count, summary.videoFramesSent, "rtcswarm reassembled every frame aiortc sent")
        XCTAssertEqual(sizes, [size], "aiortc's keyframes are \(size)")
        XCTAssertEqual(received.filter { $0.kind == .audio }.count, summary.audioFramesSent, "every Opus packet from aiortc")
        print("rtcswarm \(role) vs aiortc, \(codec.rawValue) \(size): connected \(setup.milliseconds) ms after start (aiortc: \(String(format: "%.0f", summary.setupMs ?? -1)) ms after its remote description); rtcswarm sent \(sent), aiortc decoded " +
              "\(summary.videoFramesDecoded); aiortc sent \(summary.videoFramesSent), rtcswarm got \(videoIn.count); keyframe requests \(local.keyframeRequests)")
        let loss = [InteropCell.lossPct(sent: sent, received: summary.videoFramesDecoded),
                    InteropCell.lossPct(sent: summary.videoFramesSent, received: videoIn.count)].compactMap { $0 }.max()
        cell.measured(setupMs: setup.milliseconds, lossPct: loss, resolution: size.description)
        local.peer.close(now: loop.now())
        local.drive()
        return (local, summary)
    }
}
