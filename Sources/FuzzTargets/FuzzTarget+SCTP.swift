import RTCBase
import SCTP

/// What DTLS hands the data channel stack: SCTP packets (RFC 9260 3) with DATA, SACK,
/// FORWARD TSN and DCEP inside.
extension FuzzTarget {
    /// Each input goes to a copy of an established association with its CRC32c restamped,
    /// so mutations reach the chunk and DCEP parsers instead of stopping at the checksum;
    /// then the association's timers run. Accepted: nothing was counted as malformed.
    public static let sctp = FuzzTarget(name: "sctp", seeds: { SctpFuzzSession.made.seeds }, run: { input in
        var association = SctpFuzzSession.made.server
        var packet = input
        SctpChecksum.stamp(&packet)
        let before = association.counters
        association.handle(packet, now: SctpFuzzSession.made.now)
        association.handleTimeout(now: SctpFuzzSession.made.now + .seconds(120))
        while association.pollTransmit() != nil {}
        while association.pollEvent() != nil {}
        let after = association.counters
        return after.malformedPackets == before.malformedPackets && after.wrongTags == before.wrongTags
            && after.malformedDCEP == before.malformedDCEP
    })
}

/// An association pair brought up once, and the client's packets from opening a channel
/// and sending messages (one fragmented), which seed the corpus.
struct SctpFuzzSession: Sendable {
    let server: SctpAssociation
    let seeds: [[UInt8]]
    let now: Instant

    static let made = make()

    private static func make() -> SctpFuzzSession {
        let now = Instant.zero + .seconds(1)
        var client = SctpAssociation(configuration: .init(role: .client), seed: 1)
        var server = SctpAssociation(configuration: .init(role: .server), seed: 2)
        var seeds: [[UInt8]] = []
        func exchange(record: Bool) {
            var moved = true
            while moved {
                moved = false
                while let packet = client.pollTransmit() {
                    if record { seeds.append(packet) }
                    server.handle(packet, now: now)
                    moved = true
                }
                while let packet = server.pollTransmit() {
                    client.handle(packet, now: now)
                    moved = true
                }
            }
        }
        client.connect(now: now)
        exchange(record: false)
        let established = server
        let reliable = try? client.openChannel(DataChannelOptions(label: "chat", protocol: "json"), now: now)
        let lossy = try? client.openChannel(DataChannelOptions(label: "game", ordered: false, reliability: .maxRetransmits(0)), now: now)
        for id in [reliable, lossy].compactMap({ $0 }) {
            try? client.send(Array("hello".utf8), isString: true, on: id, now: now)
            try? client.send([UInt8](repeating: 5, count: 3000), on: id, now: now)
            try? client.send([], on: id, now: now)
        }
        exchange(record: true)
        return SctpFuzzSession(server: established, seeds: seeds, now: now)
    }
}
