import Foundation
import WebRTCTestKit

/// Each player's setup read off a capture on `lo` with tshark, for the rtcswarm and the
/// Chromium players of one SRS: the oracle Chromium's pacing is measured with, free of
/// the time the browser spends in its own process (its page's fetch, applying the answer).
///
/// - `signaling`: the offer's POST to the answer's HTTP response;
/// - `applying`: the answer to the client's first STUN Binding request (its own work);
/// - `ice`: that first check to the first Binding success response the server sent (RFC
///   8445 7.2.5.3.2: the pair is usable, a browser starts DTLS), retransmissions included;
/// - `dtls`: from there to the server's Finished (RFC 6347 4.2.4: SRS answers
///   `a=setup:passive`, so the player is the DTLS client), the first handshake record of
///   epoch 1 the server sent: SRS may send its ChangeCipherSpec and Finished in two
///   datagrams, and when only the Finished is lost the handshake waits for the repeat;
/// - `setup`: signaling + ice + dtls, the time the network, the server and the client's
///   pacing and timers took.
///
/// A player is Chromium when its HTTP User-Agent names Chrome (rtcswarm sends none). Each
/// POST is matched to its flow by SRS's ICE username fragment: the answer's `a=ice-ufrag`
/// is the first half of the USERNAME in the player's checks (RFC 8445 7.2.2).
struct WireSetupPhases {
    struct Player {
        var chromium: Bool
        var signalingMs: Double
        var applyingMs: Double
        var iceMs: Double?
        var dtlsMs: Double?
        var setupMs: Double? { connectMs.map { signalingMs + $0 } }
        /// ICE and DTLS: the setup less the server's answering and the client's own work.
        var connectMs: Double? { iceMs.flatMap { ice in dtlsMs.map { ice + $0 } } }
        /// The client's timers where loss made it repeat itself during setup: from its
        /// first check that got no answer to its next check, and from a DTLS flight to
        /// the same flight again (keyed by its first handshake message, since a repeated
        /// flight may go out one message per datagram).
        var iceRepeatMs: Double?
        var dtlsRepeatMs: Double?
    }

    private struct Flow {
        var serverUfrag: String?
        var usable: Double?
        var done: Double?
        /// The player's checks until the pair was usable, the first one first.
        var checks: [(at: Double, id: String)] = []
        var firstCheck: Double? { checks.first?.at }
        var answered = Set<String>()
        /// The client's handshake datagrams before the server's final flight: when, and the
        /// first handshake message in each.
        var flights: [(at: Double, first: String)] = []

        var iceRepeatMs: Double? {
            guard let index = checks.indices.dropLast().first(where: { !answered.contains(checks[$0].id) }) else { return nil }
            return (checks[index + 1].at - checks[index].at) * 1000
        }

        /// Repeats less than 25 ms apart are not timers: Chromium sends its ClientHello twice
        /// at once (0.1 ms apart, and 5.7 ms on a busy machine), while no client's first DTLS
        /// timer is under 50 ms (libwebrtc's; RFC 6347 4.2.4.1 suggests 1 s).
        var dtlsRepeatMs: Double? {
            for (index, flight) in flights.enumerated() {
                if let earlier = flights[..<index].last(where: { $0.first == flight.first }), flight.at - earlier.at > 0.025 {
                    return (flight.at - earlier.at) * 1000
                }
            }
            return nil
        }
    }

    let players: [Player]

    /// - Parameters:
    ///   - offerPath: the path players POST to (`/rtc/v1/whep/`).
    ///   - rtcPort: SRS's UDP port.
    init(tshark: URL, capture: String, offerPath: String, rtcPort: Int) throws {
        let requests = try Self.rows(tshark, capture, filter: "http.request.method == \"POST\"",
                                     ["frame.number", "frame.time_epoch", "http.user_agent", "http.request.uri"])
            .filter { $0[3].contains(offerPath) }
            .compactMap { row in Double(row[1]).map { (frame: row[0], at: $0, chromium: row[2].contains("Chrome")) } }
        var answers: [String: (at: Double, ufrag: String)] = [:]
        for row in try Self.rows(tshark, capture, filter: "http.response", ["http.request_in", "frame.time_epoch", "http.file_data"]) {
            guard let at = Double(row[1]), let range = row[2].range(of: "a=ice-ufrag:") else { continue }
            answers[row[0]] = (at, String(row[2][range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" }))
        }
        var flows: [Int: Flow] = [:]
        let fields = ["frame.time_epoch", "udp.srcport", "udp.dstport", "stun.type", "stun.att.username", "dtls.record.content_type", "stun.id",
                      "dtls.handshake.type", "dtls.record.epoch"]
        for row in try Self.rows(tshark, capture, filter: "stun || dtls", fields) {
            guard let at = Double(row[0]), let source = Int(row[1]), let destination = Int(row[2]) else { continue }
            let fromPlayer = destination == rtcPort
            guard fromPlayer || source == rtcPort else { continue }
            var flow = flows[fromPlayer ? source : destination, default: Flow()]
            if fromPlayer, row[3] == "0x0001" {
                flow.serverUfrag = flow.serverUfrag ?? row[4].split(separator: ":").first.map(String.init)
                if flow.usable == nil { flow.checks.append((at, row[6])) }
            }
            if !fromPlayer, row[3] == "0x0101" {
                flow.usable = flow.usable ?? at
                flow.answered.insert(row[6])
            }
            if fromPlayer, flow.done == nil, let first = row[7].split(separator: ",").first { flow.flights.append((at, String(first))) }
            if !fromPlayer, zip(row[5].split(separator: ","), row[8].split(separator: ",")).contains(where: { $0 == "22" && $1 == "1" }) {
                flow.done = flow.done ?? at
            }
            flows[fromPlayer ? source : destination] = flow
        }
        let byUfrag = Dictionary(flows.values.compactMap { flow in flow.serverUfrag.map { ($0, flow) } }) { first, _ in first }
        players = requests.sorted { $0.at < $1.at }.compactMap { request in
            guard let answer = answers[request.frame], let flow = byUfrag[answer.ufrag], let firstCheck = flow.firstCheck else { return nil }
            let ms = { (from: Double?, to: Double?) -> Double? in from.flatMap { from in to.map { ($0 - from) * 1000 } } }
            return Player(chromium: request.chromium, signalingMs: (answer.at - request.at) * 1000, applyingMs: (firstCheck - answer.at) * 1000,
                          iceMs: ms(firstCheck, flow.usable), dtlsMs: ms(flow.usable, flow.done), iceRepeatMs: flow.iceRepeatMs,
                          dtlsRepeatMs: flow.dtlsRepeatMs)
        }
    }

    /// tshark's fields of the packets `filter` selects, one array per packet.
    private static func rows(_ tshark: URL, _ capture: String, filter: String, _ fields: [String]) throws -> [[String]] {
        let (status, output) = try ExternalTool.run(tshark, ["-r", capture, "-Y", filter, "-T", "fields"] + fields.flatMap { ["-e", $0] })
        guard status == 0 else { throw ExternalToolError("tshark -Y '\(filter)' exited \(status): \(output.suffix(500))") }
        return output.split(separator: "\n").map { line in
            let values = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return values + Array(repeating: "", count: max(0, fields.count - values.count))
        }.filter { $0.count >= fields.count }
    }
}
