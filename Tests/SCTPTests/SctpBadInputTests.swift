import RTCBase
@testable import SCTP
import XCTest

/// Malformed packets, chunks and DCEP messages are counted and dropped, never a crash,
/// and the association keeps working.
final class SctpBadInputTests: XCTestCase {
    /// Real packets from a transfer, mutated with a seeded generator; half get their CRC
    /// fixed so the chunk parsers see the damage.
    func testMutatedPacketsAreCountedAndDroppedAndTheAssociationStillWorks() throws {
        var pair = AssociationPair(profile: AssociationPair.delay(5))
        XCTAssertTrue(pair.connect())
        let id = try pair.client.openChannel(DataChannelOptions(label: "x"), now: pair.now)
        var captured: [[UInt8]] = []
        try pair.client.send([UInt8](repeating: 7, count: 3000), on: id, now: pair.now)
        while let packet = pair.client.pollTransmit() { captured.append(packet) }
        XCTAssertEqual(captured.count, 4, "DCEP open, then the message in 3 fragments")
        var random = SeededGenerator(seed: 77)
        for round in 0..<5000 {
            var packet = captured[round % captured.count]
            switch round % 4 {
            case 0: packet[Int(random.next() % UInt64(packet.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            case 1: packet = Array(packet.prefix(Int(random.next() % UInt64(packet.count))))
            case 2: for _ in 0..<4 { packet[12 + Int(random.next() % UInt64(packet.count - 12))] = UInt8(truncatingIfNeeded: random.next()) }
            default: packet += (0..<Int(random.next() % 16)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            }
            if round % 2 == 0 { SctpChecksum.stamp(&packet) }
            // A mutation can make a well-formed ABORT or SHUTDOWN, which rightly ends the
            // association; those are not bad input.
            let ending = (try? SctpPacket.parse(packet))?.chunks.contains { chunk in
                switch chunk {
                case .abort, .shutdown, .shutdownAck, .shutdownComplete, .initiate, .initAck, .cookieEcho: true
                default: false
                }
            } ?? false
            if ending { continue }
            pair.server.handle(packet, now: pair.now)
            pair.client.handle(packet, now: pair.now)
        }
        let counters = pair.server.counters
        XCTAssertGreaterThan(counters.badChecksums, 1000)
        XCTAssertGreaterThan(counters.malformedPackets, 50)
        XCTAssertGreaterThan(pair.client.counters.wrongTags, 1000, "the client's own packets carry the server's tag")
        XCTAssertTrue(pair.server.isEstablished)
        // The association still carries a message both ways.
        try pair.server.send(Array("still here".utf8), isString: true, on: id, now: pair.now)
        _ = pair.run(for: .seconds(5)) { $0.messages($0.clientEvents).contains { $0.bytes == Array("still here".utf8) } }
        XCTAssertTrue(pair.messages(pair.clientEvents).contains { $0.bytes == Array("still here".utf8) })
    }

    func testGarbageDcepAndUnknownStreamsAreCounted() throws {
        var pair = AssociationPair(profile: AssociationPair.delay(5))
        XCTAssertTrue(pair.connect())
        func data(_ tsnOffset: UInt32, stream: UInt16, ppid: UInt32, _ payload: [UInt8]) -> [UInt8] {
            let tsn = pair.client.localInitialTSN &+ tsnOffset
            let chunk = DataChunk(tsn: tsn, stream: stream, ssn: 0, ppid: ppid, unordered: true, beginning: true, ending: true, payload: payload[...])
            return SctpPacket(sourcePort: 5000, destinationPort: 5000, verificationTag: pair.server.localTag, chunks: [.data(chunk)]).serialize()
        }
        pair.server.handle(data(0, stream: 4, ppid: 50, [0x03, 0x7F, 0, 0]), now: pair.now)
        pair.server.handle(data(1, stream: 6, ppid: 50, [0x02]), now: pair.now)
        pair.server.handle(data(2, stream: 8, ppid: 51, Array("nobody".utf8)), now: pair.now)
        pair.server.handle(data(3, stream: 8, ppid: 99, [1]), now: pair.now)
        XCTAssertEqual(pair.server.counters.malformedDCEP, 2, "a bad channel type, an ACK for no open")
        XCTAssertEqual(pair.server.counters.droppedMessages, 2, "no channel on stream 8")
        XCTAssertEqual(pair.server.openChannels, [])
    }
}
