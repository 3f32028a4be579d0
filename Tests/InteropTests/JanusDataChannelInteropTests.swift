import EventLoop
import Foundation
@testable import PeerCore // the association's SctpCounters (retransmissions), which Peer does not publish
import RTCBase
import SCTP
import SDP
import Signaling
import WebRTCTestKit
import XCTest

/// rtcswarm's peer offers the Janus EchoTest (Debian's Janus 1.1.2, built with libusrsctp)
/// audio, video and a data channel section (RFC 8841): Janus accepts it, SCTP runs over
/// the call's DTLS (RFC 8261), rtcswarm opens a channel by DCEP (RFC 8832) and Janus
/// echoes binary messages of 1 B, 1 KB, 16 KB and 64 KB - 1 byte for byte (issue 20).
///
/// 65,535 bytes is the most Janus can echo: its plugin API carries a message's length in
/// 16 bits (`janus_plugin_data.length` is a `uint16_t`), so a 65,536-byte message arrives
/// whole at its SCTP stack (its log says so) and never reaches the EchoTest.
final class JanusDataChannelInteropTests: XCTestCase {
    static let sizes = [1, 1024, 16_384, 65_535]

    func testEchoTestEchoesDataChannelMessagesByteForByte() throws {
        let cell = InteropRecorder.cell(self, target: "Janus", role: "EchoTest with a data channel, rtcswarm's peer (HTTP)",
                                        codec: "data channel")
        let janus = try JanusUnderTest(.http)
        defer { janus.stop() }
        cell.version = ServerVersionProbe.janus(port: janus.janus.port)
        let loop = janus.loop

        let local = try LoopPeer(loop: loop, role: .offerer, direction: .sendrecv, seed: 23, dataChannels: true)
        let offer = try local.peer.createOffer(now: loop.now())
        var signaled: [CallSetupEvent] = []
        var answer: SessionDescription?
        let setup = janus.call(.echoTest(videoCodec: "vp8"), offer: offer, seed: 23).driver
        setup.onEvent = { event in
            signaled.append(event)
            guard case .answer(let sdp) = event else { return }
            do {
                answer = try SessionDescription.parse(sdp)
                try local.peer.setRemoteAnswer(sdp, now: loop.now())
            } catch {
                XCTFail("our peer refused Janus's answer: \(error)\n\(sdp)")
            }
            local.drive()
            setup.trickle(nil)
        }
        setup.start()
        local.drive()
        let dataEvents = { local.events.compactMap { if case .dataChannel(let event) = $0 { event } else { nil } } }
        let up = loop.run(until: { dataEvents().contains(.associationUp) || local.failure != nil }, timeout: .seconds(10))
        let section = answer?.media.first { $0.kind == .application }
        XCTAssertEqual(section?.isDataChannel, true, "Janus answers the data channel section: \(answer.map { "\($0.media.map(\.kind))" } ?? "no answer")")
        XCTAssertNotEqual(section?.port, 0, "and accepts it")
        guard up, dataEvents().contains(.associationUp) else {
            return XCTFail("no SCTP association with Janus: \(local.events.suffix(5)) \(signaled)\n\(janus.janus.log.suffix(3000))")
        }
        let dtlsDone = local.events.indices.first { if case .phaseCompleted(.dtls, _) = local.events[$0] { true } else { false } }
            .map { local.eventTimes[$0] }

        let id = try local.peer.openDataChannel(DataChannelOptions(label: "from-rtcswarm"), now: loop.now())
        local.drive()
        let openIndex = { local.events.indices.first { if case .dataChannel(.channelOpen(let channel)) = local.events[$0] { channel.id == id } else { false } } }
        XCTAssertTrue(loop.run(until: { openIndex() != nil }, timeout: .seconds(5)), "Janus acked DATA_CHANNEL_OPEN: \(dataEvents())")
        guard let opened = openIndex(), let dtlsDone else { return }
        let openMs = Double((local.eventTimes[opened] - dtlsDone).nanoseconds) / 1e6

        // One message at a time: the round trip of each is from its send to its echo.
        var roundTrips: [Double] = []
        var intact = 0
        for size in Self.sizes {
            let message = ChromiumDataChannelCall.pattern(size)
            let before = local.events.count
            let sent = loop.now()
            try local.peer.sendData(message, on: id, now: sent)
            local.drive()
            let echo = { local.events[before...].lazy.compactMap { if case .dataChannel(.message(let m)) = $0 { m } else { nil } }.first }
            guard loop.run(until: { echo() != nil }, timeout: .seconds(5)), let echoed = echo() else {
                XCTFail("no echo of \(size) B: \(janus.janus.log.suffix(1500))")
                continue
            }
            roundTrips.append(Double((loop.now() - sent).nanoseconds) / 1e6)
            XCTAssertEqual(echoed.channel, id, "the echo comes back on the channel it went out on")
            XCTAssertFalse(echoed.isString)
            if echoed.bytes == message { intact += 1 } else { XCTFail("\(size) B came back as \(echoed.bytes.count) B, not the same") }
        }
        let counters = local.peer.sctp?.counters
        let received = local.events.filter { if case .dataChannel(.message) = $0 { true } else { false } }.count
        print("Janus EchoTest data channel: stream \(id) open \(String(format: "%.1f", openMs)) ms after DTLS; "
              + "\(Self.sizes.count) messages sent, \(received) received, \(intact) byte for byte; round trips "
              + roundTrips.map { String(format: "%.2f", $0) }.joined(separator: ", ") + " ms for " + Self.sizes.map { "\($0) B" }.joined(separator: ", ")
              + "; SCTP retransmissions \(counters?.retransmissions ?? -1), T3 expiries \(counters?.t3Expiries ?? -1)")
        cell.measured(setupMs: openMs, lossPct: InteropCell.lossPct(sent: Self.sizes.count, received: received))
        XCTAssertEqual(intact, Self.sizes.count)
        XCTAssertEqual(received, Self.sizes.count, "one echo per message, no more")
        XCTAssertGreaterThanOrEqual(openMs, 0)
        XCTAssertEqual(counters?.retransmissions, 0, "nothing is lost on loopback, so nothing is sent twice")

        var closed = false
        setup.onEvent = { if $0 == .closed { closed = true } }
        local.peer.close(now: loop.now())
        local.drive()
        setup.hangUp()
        XCTAssertTrue(loop.run(until: { closed }, timeout: .seconds(5)), "teardown: hangup, detach, destroy")
    }
}
