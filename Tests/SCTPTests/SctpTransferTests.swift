import RTCBase
import SCTP
import XCTest

/// Two associations in virtual time over links with seeded loss (the Impairment target's
/// `ImpairedLink`), 20 ms each way.
final class SctpTransferTests: XCTestCase {
    static let count = 10_000

    /// A message numbered `index`: the number in its first 4 bytes, then filler.
    private func numbered(_ index: Int, size: Int = 100) -> [UInt8] {
        var bytes = [UInt8(index >> 24 & 0xFF), UInt8(index >> 16 & 0xFF), UInt8(index >> 8 & 0xFF), UInt8(index & 0xFF)]
        bytes += (4..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
        return bytes
    }

    private func number(_ bytes: [UInt8]) -> Int {
        Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
    }

    /// Opens one channel from the client and sends `count` messages, one every 2 ms.
    private func send(_ count: Int, options: DataChannelOptions, over pair: inout AssociationPair) throws -> UInt16 {
        XCTAssertTrue(pair.connect())
        let id = try pair.client.openChannel(options, now: pair.now)
        XCTAssertTrue(pair.run(for: .seconds(10)) { !$0.opened($0.clientEvents).isEmpty })
        for index in 0..<count {
            try pair.client.send(numbered(index), on: id, now: pair.now)
            pair.run(for: .milliseconds(2))
        }
        return id
    }

    func testTenThousandReliableOrderedMessagesUnderFivePercentLossArriveCompleteAndInOrder() throws {
        var pair = AssociationPair(profile: AssociationPair.delay(20, lossPct: 5), seed: 20)
        let id = try send(Self.count, options: DataChannelOptions(label: "reliable"), over: &pair)
        XCTAssertTrue(pair.run(for: .seconds(60)) { $0.messages($0.serverEvents).count == Self.count })
        let received = pair.messages(pair.serverEvents)
        XCTAssertEqual(received.count, Self.count)
        XCTAssertEqual(received.map { self.number($0.bytes) }, Array(0..<Self.count), "complete and in order")
        XCTAssertTrue(received.allSatisfy { $0.channel == id && $0.bytes.count == 100 })
        XCTAssertEqual(received.last?.bytes, numbered(Self.count - 1))
        let dropped = pair.toServer.counters.droppedByLoss + pair.toClient.counters.droppedByLoss
        let counters = pair.client.counters
        XCTAssertGreaterThan(dropped, 400, "the links did lose packets")
        XCTAssertGreaterThan(counters.retransmissions, 300)
        XCTAssertGreaterThan(counters.fastRetransmits, 0)
        XCTAssertEqual(counters.abandonedMessages, 0)
        print("reliable ordered: \(Self.count) messages, links dropped \(dropped) packets, retransmissions \(counters.retransmissions) " +
              "(fast \(counters.fastRetransmits), T3 expiries \(counters.t3Expiries)), last message at \(pair.now)")
    }

    /// With max_retransmits 0 a lost message stays lost: the loss seen at the receiver is
    /// the link's loss, within three standard deviations of a binomial over 10,000 sends.
    func testUnorderedZeroRetransmitsLosesWhatTheLinkLoses() throws {
        let lossPct = 5.0
        var pair = AssociationPair(profile: AssociationPair.delay(20, lossPct: lossPct), seed: 21)
        let options = DataChannelOptions(label: "lossy", ordered: false, reliability: .maxRetransmits(0))
        _ = try send(Self.count, options: options, over: &pair)
        pair.run(for: .seconds(10))
        let numbers = pair.messages(pair.serverEvents).map { self.number($0.bytes) }
        XCTAssertEqual(Set(numbers).count, numbers.count, "no message twice")
        let measured = 100 * Double(Self.count - numbers.count) / Double(Self.count)
        let tolerance = 3 * 100 * (lossPct / 100 * (1 - lossPct / 100) / Double(Self.count)).squareRoot()
        XCTAssertEqual(measured, lossPct, accuracy: tolerance, "measured \(measured) %")
        let counters = pair.client.counters
        XCTAssertEqual(counters.retransmissions, 0, "nothing is sent twice")
        // A message whose SACK was lost is abandoned too, though it arrived.
        XCTAssertGreaterThanOrEqual(counters.abandonedMessages, Self.count - numbers.count, "every lost message was abandoned")
        XCTAssertGreaterThan(counters.forwardTSNsSent, 0)
        XCTAssertLessThan(numbers.count, Self.count)
        print("unordered max_retransmits 0: \(numbers.count) of \(Self.count) arrived, loss \(measured) % (injected \(lossPct) % ± \(tolerance)), " +
              "abandoned \(counters.abandonedMessages), FORWARD TSNs \(counters.forwardTSNsSent)")
    }

    /// Fragmentation and reassembly (RFC 9260 6.9) under loss: each message arrives byte for
    /// byte, 1102 bytes (one full fragment) and its neighbours among them.
    func testMessagesFromOneByteTo256KiBArriveByteForByteUnderLoss() throws {
        var pair = AssociationPair(profile: AssociationPair.delay(20, lossPct: 5), seed: 22)
        XCTAssertTrue(pair.connect())
        let id = try pair.client.openChannel(DataChannelOptions(label: "sizes"), now: pair.now)
        let sizes = [1, 1024, 16 * 1024, 64 * 1024, 256 * 1024, 1101, 1102, 1103]
        var random = SeededGenerator(seed: 9)
        let sent = sizes.map { size in (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        for message in sent { try pair.client.send(message, on: id, now: pair.now) }
        XCTAssertTrue(pair.run(for: .seconds(120)) { $0.messages($0.serverEvents).count == sizes.count })
        XCTAssertEqual(pair.messages(pair.serverEvents).map(\.bytes.count), sizes)
        XCTAssertEqual(pair.messages(pair.serverEvents).map(\.bytes), sent)
        XCTAssertGreaterThan(pair.client.counters.retransmissions, 0)
    }

    /// The server echoes each message: both directions carry DATA and SACKs together.
    func testEchoBothWaysUnderLoss() throws {
        var pair = AssociationPair(profile: AssociationPair.delay(20, lossPct: 5), seed: 23)
        XCTAssertTrue(pair.connect())
        let id = try pair.client.openChannel(DataChannelOptions(label: "echo"), now: pair.now)
        for index in 0..<500 {
            try pair.client.send(numbered(index), on: id, now: pair.now)
            pair.run(for: .milliseconds(5))
            for message in pair.messages(pair.serverEvents) { try pair.server.send(message.bytes, on: id, now: pair.now) }
            pair.serverEvents.removeAll()
        }
        XCTAssertTrue(pair.run(for: .seconds(60)) { pair in
            for message in pair.messages(pair.serverEvents) { try? pair.server.send(message.bytes, on: id, now: pair.now) }
            pair.serverEvents.removeAll()
            return pair.messages(pair.clientEvents).count == 500
        })
        XCTAssertEqual(pair.messages(pair.clientEvents).map { self.number($0.bytes) }, Array(0..<500))
    }

    /// max_packet_life_time (RFC 3758 lifetime): messages the link keeps losing past their
    /// lifetime are abandoned, the rest arrive once, and the sender's queue empties.
    func testLifetimeChannelAbandonsLateMessagesAndDrains() throws {
        var pair = AssociationPair(profile: AssociationPair.delay(20, lossPct: 30), seed: 24)
        let options = DataChannelOptions(label: "timed", reliability: .lifetime(.milliseconds(100)))
        _ = try send(1000, options: options, over: &pair)
        pair.run(for: .seconds(120)) { $0.client.pollTimeout() == nil }
        let numbers = pair.messages(pair.serverEvents).map { self.number($0.bytes) }
        XCTAssertEqual(numbers, numbers.sorted(), "ordered channel: in order")
        XCTAssertEqual(Set(numbers).count, numbers.count)
        let counters = pair.client.counters
        XCTAssertGreaterThan(counters.abandonedMessages, 0)
        XCTAssertGreaterThanOrEqual(numbers.count + counters.abandonedMessages, 1000, "each message arrived or was abandoned")
        XCTAssertLessThan(numbers.count, 1000)
        XCTAssertNil(pair.client.pollTimeout(), "nothing left outstanding")
    }
}
