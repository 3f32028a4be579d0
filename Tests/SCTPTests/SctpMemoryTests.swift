import Foundation
import Glibc
import RTCBase
import SCTP
import XCTest

/// What one idle association costs: its inline size and the heap it holds after a
/// handshake, a DCEP open and a message each way: the growth of the resident set over
/// 2,000 pairs (an upper bound: it counts allocator slack and transient buffers too).
final class SctpMemoryTests: XCTestCase {
    private func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    private func exchange(_ a: inout SctpAssociation, _ b: inout SctpAssociation, now: Instant) {
        var moved = true
        while moved {
            moved = false
            while let packet = a.pollTransmit() { b.handle(packet, now: now); moved = true }
            while let packet = b.pollTransmit() { a.handle(packet, now: now); moved = true }
        }
        while a.pollEvent() != nil {}
        while b.pollEvent() != nil {}
    }

    func testIdleAssociationHoldsLessThanTenKilobytes() throws {
        let pairs = 2000
        var associations: [SctpAssociation] = []
        associations.reserveCapacity(2 * pairs)
        let before = residentBytes()
        XCTAssertGreaterThan(before, 0)
        var now = Instant.zero
        for index in 0..<pairs {
            var client = SctpAssociation(configuration: .init(role: .client), seed: UInt64(2 * index + 1))
            var server = SctpAssociation(configuration: .init(role: .server), seed: UInt64(2 * index + 2))
            client.connect(now: now)
            exchange(&client, &server, now: now)
            let id = try client.openChannel(DataChannelOptions(label: "chat"), now: now)
            exchange(&client, &server, now: now)
            try client.send([UInt8](repeating: 1, count: 200), on: id, now: now)
            try server.send([UInt8](repeating: 2, count: 200), on: id, now: now)
            exchange(&client, &server, now: now)
            now = now + .milliseconds(300)
            client.handleTimeout(now: now)
            server.handleTimeout(now: now)
            exchange(&client, &server, now: now)
            XCTAssertEqual(client.openChannels.count, 1)
            associations.append(client)
            associations.append(server)
        }
        let perAssociation = Double(residentBytes() - before) / Double(2 * pairs)
        let inline = MemoryLayout<SctpAssociation>.size
        print("SctpAssociation: \(inline) bytes inline, \(Int(perAssociation)) bytes of resident memory each (idle, one channel, one message each way)")
        XCTAssertLessThan(perAssociation, 10_000)
        XCTAssertEqual(associations.count, 2 * pairs)
    }
}
