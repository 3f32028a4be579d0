import PeerCore
import RTCBase
import SCTP
import SDP
import XCTest

/// Two Peers on the virtual network with data channels: the offer carries the section,
/// the answer accepts it, SCTP runs over the DTLS of the media (RFC 8261), and channels
/// opened by either side carry messages byte for byte.
final class PeerDataChannelTests: XCTestCase {
    private func opened(_ log: EventLog) -> [DataChannel] {
        log.dataChannel.compactMap { if case .channelOpen(let channel) = $0 { channel } else { nil } }
    }

    private func messages(_ log: EventLog) -> [DataChannelMessage] {
        log.dataChannel.compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    func testPeersOpenChannelsBothWaysAndCarryMessagesOverTheirDtls() throws {
        let pair = try PeerPair(offerer: [.audio(), .video()], answerer: [.audio(), .video()], dataChannels: true)
        let offer = try SessionDescription.parse(XCTUnwrap(pair.offerer.localDescription))
        XCTAssertEqual(offer.media.last.map { "\($0.kind) \($0.proto) \($0.formats)" }, "application UDP/DTLS/SCTP [\"webrtc-datachannel\"]")
        XCTAssertEqual(offer.bundleMids, ["0", "1", "2"])
        XCTAssertTrue(pair.connect())
        XCTAssertTrue(pair.network.progress(until: {
            pair.drain()
            return pair.offererLog.dataChannel.contains(.associationUp) && pair.answererLog.dataChannel.contains(.associationUp)
        }, limit: pair.network.now + .seconds(5)))
        XCTAssertEqual(pair.answerer.dtlsRole, .client, "the answer said active")
        let chat = try pair.offerer.openDataChannel(DataChannelOptions(label: "chat"), now: pair.network.now)
        let lossy = try pair.answerer.openDataChannel(
            DataChannelOptions(label: "lossy", ordered: false, reliability: .maxRetransmits(0)), now: pair.network.now)
        XCTAssertEqual(chat, 1, "the DTLS server takes odd ids (RFC 8832 6)")
        XCTAssertEqual(lossy, 0)
        XCTAssertTrue(pair.network.progress(until: {
            pair.drain()
            return opened(pair.offererLog).count == 2 && opened(pair.answererLog).count == 2
        }, limit: pair.network.now + .seconds(5)))
        let sizes = [1, 1024, 16_384, 65_536]
        let payloads = sizes.map { size in (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ size) } }
        for payload in payloads { try pair.offerer.sendData(payload, on: chat, now: pair.network.now) }
        try pair.answerer.sendData(Array("back".utf8), isString: true, on: lossy, now: pair.network.now)
        XCTAssertTrue(pair.network.progress(until: {
            pair.drain()
            return messages(pair.answererLog).count == sizes.count && messages(pair.offererLog).count == 1
        }, limit: pair.network.now + .seconds(5)))
        XCTAssertEqual(messages(pair.answererLog).map(\.bytes.count), sizes)
        XCTAssertTrue(messages(pair.answererLog).map(\.bytes) == payloads, "byte for byte")
        XCTAssertEqual(messages(pair.offererLog), [DataChannelMessage(channel: lossy, bytes: Array("back".utf8), isString: true)])
    }

    /// A data channel section alone (RFC 8841 with no media beside it): the offer bundles
    /// just it, and ICE, DTLS and SCTP come up over it.
    func testADataOnlyCallCarriesMessagesWithNoMediaSection() throws {
        let pair = try PeerPair(offerer: [], answerer: [], dataChannels: true)
        let offer = try SessionDescription.parse(XCTUnwrap(pair.offerer.localDescription))
        XCTAssertEqual(offer.media.map { "\($0.kind)" }, ["application"])
        XCTAssertEqual(offer.bundleMids, ["0"])
        XCTAssertTrue(pair.connect())
        XCTAssertTrue(pair.network.progress(until: {
            pair.drain()
            return pair.offererLog.dataChannel.contains(.associationUp) && pair.answererLog.dataChannel.contains(.associationUp)
        }, limit: pair.network.now + .seconds(5)))
        let chat = try pair.offerer.openDataChannel(DataChannelOptions(label: "chat"), now: pair.network.now)
        XCTAssertTrue(pair.network.progress(until: {
            pair.drain()
            return opened(pair.answererLog).count == 1
        }, limit: pair.network.now + .seconds(5)))
        try pair.offerer.sendData(Array("only data".utf8), isString: true, on: chat, now: pair.network.now)
        XCTAssertTrue(pair.network.progress(until: {
            pair.drain()
            return messages(pair.answererLog).count == 1
        }, limit: pair.network.now + .seconds(5)))
        XCTAssertEqual(messages(pair.answererLog), [DataChannelMessage(channel: chat, bytes: Array("only data".utf8), isString: true)])
    }

    func testPeersWithoutDataChannelsRefuseToOpenOne() throws {
        let pair = try PeerPair(offerer: [.audio()], answerer: [.audio()])
        XCTAssertTrue(pair.connect())
        XCTAssertThrowsError(try pair.offerer.openDataChannel(DataChannelOptions(label: "x"), now: pair.network.now))
    }
}
