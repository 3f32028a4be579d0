import RTCBase
import SCTP
import XCTest

final class SctpHandshakeTests: XCTestCase {
    /// INIT, INIT ACK, COOKIE ECHO, COOKIE ACK: two round trips over a 20 ms link.
    func testAssociationComesUpInTwoRoundTrips() {
        var pair = AssociationPair(profile: AssociationPair.delay(20))
        XCTAssertTrue(pair.connect())
        XCTAssertEqual(pair.now, Instant.zero + .milliseconds(80), "INIT, INIT ACK, COOKIE ECHO, COOKIE ACK")
        XCTAssertEqual(pair.clientEvents, [.associationUp])
        XCTAssertEqual(pair.serverEvents, [.associationUp])
        XCTAssertEqual(pair.client.counters.packetsSent, 2)
        XCTAssertEqual(pair.server.counters.packetsSent, 2)
    }

    /// Both sides send INIT at once, as browsers do: each answers the other's INIT and both
    /// come up (RFC 9260 5.2.1, 5.2.4).
    func testSimultaneousInitsBothComeUp() {
        var pair = AssociationPair(profile: AssociationPair.delay(10))
        pair.server.connect(now: pair.now)
        XCTAssertTrue(pair.connect())
        XCTAssertEqual(pair.clientEvents, [.associationUp])
        XCTAssertEqual(pair.serverEvents, [.associationUp])
        let id = try? pair.client.openChannel(DataChannelOptions(label: "x"), now: pair.now)
        XCTAssertEqual(id, 0)
        XCTAssertTrue(pair.run(for: .seconds(2)) { !$0.opened($0.serverEvents).isEmpty && !$0.opened($0.clientEvents).isEmpty })
    }

    func testLostInitIsRetransmittedAfterT1() {
        var pair = AssociationPair(profile: AssociationPair.delay(5))
        pair.client.connect(now: pair.now)
        _ = pair.client.pollTransmit()  // the first INIT is lost
        XCTAssertEqual(pair.client.pollTimeout(), Instant.zero + .seconds(1), "RTO.Initial")
        XCTAssertTrue(pair.run(for: .seconds(5)) { $0.client.isEstablished && $0.server.isEstablished })
        XCTAssertEqual(pair.now, Instant.zero + .seconds(1) + .milliseconds(20))
    }

    /// DCEP (RFC 8832): the client's channels take even ids, the server's odd ones; each
    /// opens on both sides with the label, protocol, order and reliability it was given.
    func testChannelsOpenWithDcepAndStreamIdParity() throws {
        var pair = AssociationPair(profile: AssociationPair.delay(10))
        XCTAssertTrue(pair.connect())
        let reliable = DataChannelOptions(label: "chat", protocol: "json")
        let lossy = DataChannelOptions(label: "game", ordered: false, reliability: .maxRetransmits(0))
        let timed = DataChannelOptions(label: "timed", reliability: .lifetime(.milliseconds(300)))
        XCTAssertEqual(try pair.client.openChannel(reliable, now: pair.now), 0)
        XCTAssertEqual(try pair.client.openChannel(lossy, now: pair.now), 2)
        XCTAssertEqual(try pair.server.openChannel(timed, now: pair.now), 1)
        XCTAssertTrue(pair.run(for: .seconds(1)) { $0.opened($0.clientEvents).count == 3 && $0.opened($0.serverEvents).count == 3 })
        XCTAssertEqual(pair.now, Instant.zero + .milliseconds(40 + 20), "one round trip after the association was up")
        let expected = [DataChannel(id: 0, options: reliable), DataChannel(id: 1, options: timed), DataChannel(id: 2, options: lossy)]
        XCTAssertEqual(pair.client.openChannels, expected)
        XCTAssertEqual(pair.server.openChannels, expected)
    }

    /// A negotiated channel (RFC 8831 6.5) sends no DCEP: both sides open it with the same
    /// id, and it is open as soon as the association is.
    func testNegotiatedChannelOpensWithoutDcep() throws {
        var pair = AssociationPair(profile: AssociationPair.delay(10))
        let options = DataChannelOptions(label: "fixed", negotiatedID: 7)
        XCTAssertEqual(try pair.client.openChannel(options, now: pair.now), 7)
        XCTAssertEqual(try pair.server.openChannel(options, now: pair.now), 7)
        XCTAssertTrue(pair.connect())
        XCTAssertEqual(pair.opened(pair.clientEvents).map(\.id), [7])
        XCTAssertEqual(pair.opened(pair.serverEvents).map(\.id), [7])
        try pair.client.send(Array("hi".utf8), isString: true, on: 7, now: pair.now)
        XCTAssertTrue(pair.run(for: .seconds(1)) { !$0.messages($0.serverEvents).isEmpty })
        XCTAssertEqual(pair.messages(pair.serverEvents), [DataChannelMessage(channel: 7, bytes: Array("hi".utf8), isString: true)])
        XCTAssertThrowsError(try pair.client.openChannel(options, now: pair.now)) { XCTAssertEqual(($0 as? SctpError)?.code, .channelID) }
    }

    /// RFC 8831 6.6 and 8: string, binary, empty string and empty binary keep their kind.
    func testPayloadProtocolsKeepStringBinaryAndEmptyForms() throws {
        var pair = AssociationPair(profile: AssociationPair.delay(1))
        XCTAssertTrue(pair.connect())
        let id = try pair.client.openChannel(DataChannelOptions(label: "forms"), now: pair.now)
        let sent = [DataChannelMessage(channel: id, bytes: Array("text".utf8), isString: true),
                    DataChannelMessage(channel: id, bytes: [0, 1, 2], isString: false),
                    DataChannelMessage(channel: id, bytes: [], isString: true),
                    DataChannelMessage(channel: id, bytes: [], isString: false)]
        for message in sent { try pair.client.send(message.bytes, isString: message.isString, on: id, now: pair.now) }
        XCTAssertTrue(pair.run(for: .seconds(1)) { $0.messages($0.serverEvents).count == 4 })
        XCTAssertEqual(pair.messages(pair.serverEvents), sent)
        XCTAssertThrowsError(try pair.client.send([UInt8](repeating: 0, count: 262_145), on: id, now: pair.now)) {
            XCTAssertEqual(($0 as? SctpError)?.code, .tooLarge)
        }
    }

    /// SHUTDOWN waits until queued data is acked, then both sides close cleanly (9.2).
    func testShutdownDeliversQueuedDataFirstThenClosesBothSides() throws {
        var pair = AssociationPair(profile: AssociationPair.delay(10, lossPct: 20), seed: 5)
        XCTAssertTrue(pair.connect())
        let id = try pair.client.openChannel(DataChannelOptions(label: "bye"), now: pair.now)
        for index in 0..<50 { try pair.client.send([UInt8(index)], on: id, now: pair.now) }
        pair.client.close(now: pair.now)
        XCTAssertThrowsError(try pair.client.send([1], on: id, now: pair.now))
        XCTAssertTrue(pair.run(for: .seconds(60)) { $0.clientEvents.last == .closed(.shutdown) && $0.serverEvents.last == .closed(.shutdown) })
        XCTAssertEqual(pair.messages(pair.serverEvents).map { $0.bytes[0] }, (0..<50).map { UInt8($0) })
        XCTAssertNil(pair.client.pollTimeout())
        XCTAssertNil(pair.server.pollTimeout())
    }

    func testAbortClosesThePeer() {
        var pair = AssociationPair(profile: AssociationPair.delay(10))
        XCTAssertTrue(pair.connect())
        pair.server.abort("test", now: pair.now)
        XCTAssertTrue(pair.run(for: .seconds(1)) { $0.clientEvents.last == .closed(.abortedByPeer) })
        XCTAssertEqual(pair.serverEvents.last, .closed(.aborted("test")))
    }
}
