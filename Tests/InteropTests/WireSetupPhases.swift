import Foundation
import WebRTCTestKit

/// Each player's setup read off a capture on `lo` with tshark, for the rtcswarm and the
/// Chromium players (or echo peers) of one server: the oracle Chromium's pacing is
/// measured with, free of the time the browser spends in its own process (its page's
/// fetch, applying the answer).
///
/// - `signaling`: the HTTP request carrying the offer to the HTTP response carrying the
///   answer (SRS's and WHEP's POST and its reply; on Janus the EchoTest `message` and the
///   long-poll GET's reply with the event);
/// - `applying`: the answer to the client's first STUN Binding request (its own work);
/// - `ice`: that first check to the first Binding success response the server sent (RFC
///   8445 7.2.5.3.2: the pair is usable, a browser starts DTLS), retransmissions included;
/// - `dtls`: from there to when the DTLS server's final flight has gone out whole: its
///   ChangeCipherSpec and Finished (RFC 6347 4.2.4), its first handshake record of epoch
///   1, and the NewSessionTicket before them when it sends one (RFC 5077 3.3): SRS's when
///   it answers `a=setup:passive` and the player sends the ClientHello, the player's when
///   Janus answers `a=setup:active` and sends it. SRS may send them in separate datagrams
///   and loss may take any: without the ChangeCipherSpec the Finished is of an epoch the
///   client cannot read yet (OpenSSL keeps it until the ChangeCipherSpec comes, RFC 6347
///   4.1), without the ticket the client waits for it, and the handshake waits for the
///   repeat (seen: a Finished at 52 ms whose ChangeCipherSpec was lost, and a
///   ChangeCipherSpec and Finished at 50.6 ms whose ticket was lost, both clients done
///   at 152 ms);
/// - `setup`: signaling + ice + dtls, the time the network, the server and the client's
///   pacing and timers took, and of `applying` the part the server did not wait on: a
///   full ICE server (Janus) starts its own checks on its own clock after its answer
///   (libnice's pacing: 15-27 ms here), and its DTLS (it sends the ClientHello) waits for
///   them, so a client that applies the answer sooner only waits longer in `dtls`. Only
///   what the client took after the server's first check counts out; for an ICE lite
///   server (SRS), which never checks, all of `applying` does.
///
/// A player is Chromium when the User-Agent of its offer names Chrome (rtcswarm sends
/// none). Offer, answer and flow meet by ICE username fragments, whatever carried them:
/// the player's checks carry USERNAME `serverUfrag:playerUfrag` (RFC 8445 7.2.2), the offer
/// is the request whose body has `a=ice-ufrag:<playerUfrag>` and the answer the response
/// whose body has `a=ice-ufrag:<serverUfrag>` (inside JSON too, where the line ends are
/// escaped).
struct WireSetupPhases {
    struct Player {
        var chromium: Bool
        var signalingMs: Double
        var applyingMs: Double
        var iceMs: Double?
        var dtlsMs: Double?
        /// The server's first check, from the answer; nil for an ICE lite server.
        var serverCheckMs: Double?
        /// ICE and DTLS: the setup less the server's answering and the client's own work.
        var connectMs: Double? { iceMs.flatMap { ice in dtlsMs.map { ice + $0 } } }
        var setupMs: Double? {
            let ownTime = max(0, applyingMs - max(0, serverCheckMs ?? 0))
            return iceMs.flatMap { ice in dtlsMs.map { signalingMs + applyingMs - ownTime + ice + $0 } }
        }
        /// The player's timers where loss made it repeat itself during setup: from its
        /// first check that got no answer to its next check (not one a check of the server
        /// triggered), and from a DTLS flight to
        /// the same flight again (keyed by its first handshake message, since a repeated
        /// flight may go out one message per datagram): its ClientHello as DTLS client,
        /// its ServerHello flight as DTLS server.
        var iceRepeatMs: Double?
        var dtlsRepeatMs: Double?
        /// Whether the player sent the ClientHello (nil: no handshake on the capture).
        var dtlsClient: Bool?
    }

    /// One player's STUN and DTLS datagrams with the server, as the capture shows them.
    struct Flow {
        /// The ufrags of the player's checks' USERNAME, `server:player`.
        var ufrags: (server: Substring, player: Substring)?
        var usable: Double?
        /// The DTLS server's first ChangeCipherSpec, Finished and NewSessionTicket on the capture.
        var changeCipherSpec: Double?, finished: Double?, newSessionTicket: Double?
        /// When the DTLS server's final flight had gone out whole; a server that sends no
        /// ticket (none on the capture) ends it with the other two.
        var done: Double? {
            changeCipherSpec.flatMap { cipher in finished.map { max(cipher, $0, newSessionTicket ?? 0) } }
        }
        /// The server's checks (a full ICE server's, RFC 8445 7.2.4), the first one first.
        var serverChecks: [Double] = []
        var serverCheck: Double? { serverChecks.first }
        var playerIsDtlsClient: Bool?
        /// The player's checks until the pair was usable, the first one first.
        var checks: [(at: Double, id: String)] = []
        var firstCheck: Double? { checks.first?.at }
        var answered = Set<String>()
        /// The player's handshake datagrams before the DTLS server's final flight: when,
        /// and the first handshake message in each.
        var flights: [(at: Double, first: String)] = []

        /// A check the server's own check prompted (a triggered check, RFC 8445 7.3.1.4) is
        /// no timer: the next check counts only when no server check came in between.
        var iceRepeatMs: Double? {
            guard let index = checks.indices.dropLast().first(where: { index in
                !answered.contains(checks[index].id)
                    && !serverChecks.contains { $0 > checks[index].at && $0 <= checks[index + 1].at }
            }) else { return nil }
            return (checks[index + 1].at - checks[index].at) * 1000
        }

        /// Repeats less than 25 ms apart are not timers: Chromium sends its ClientHello twice
        /// at once (0.1 ms apart, and 5.5-5.7 ms on a busy machine), while no client's first
        /// DTLS timer is under 50 ms (libwebrtc's; RFC 6347 4.2.4.1 suggests 1 s).
        var dtlsRepeatMs: Double? {
            for (index, flight) in flights.enumerated() {
                if let earlier = flights[..<index].last(where: { $0.first == flight.first }), flight.at - earlier.at > 0.025 {
                    return (flight.at - earlier.at) * 1000
                }
            }
            return nil
        }

        /// One STUN or DTLS datagram of this flow, in capture order.
        mutating func add(at: Double, fromPlayer: Bool, stunType: String, username: String, stunID: String, contentTypes: String,
                          handshakeTypes: String, epochs: String) {
            if fromPlayer, stunType == "0x0001" {
                if ufrags == nil, let colon = username.firstIndex(of: ":") {
                    ufrags = (username[..<colon], username[username.index(after: colon)...])
                }
                if usable == nil { checks.append((at, stunID)) }
            }
            if !fromPlayer, stunType == "0x0001" { serverChecks.append(at) }
            if !fromPlayer, stunType == "0x0101" {
                usable = usable ?? at
                answered.insert(stunID)
            }
            let handshake = handshakeTypes.split(separator: ",")
            if playerIsDtlsClient == nil, handshake.contains("1") { playerIsDtlsClient = fromPlayer }
            if fromPlayer, done == nil, let first = handshake.first { flights.append((at, String(first))) }
            // The DTLS server's ChangeCipherSpec (content type 20), Finished (its first
            // handshake record, 22, of epoch 1) and NewSessionTicket (handshake type 4)
            // together end the handshake.
            if playerIsDtlsClient == !fromPlayer {
                let records = zip(contentTypes.split(separator: ","), epochs.split(separator: ","))
                if changeCipherSpec == nil, records.contains(where: { $0.0 == "20" }) { changeCipherSpec = at }
                if finished == nil, records.contains(where: { $0 == "22" && $1 == "1" }) { finished = at }
                if newSessionTicket == nil, handshake.contains("4") { newSessionTicket = at }
            }
        }
    }

    let players: [Player]

    /// - Parameters:
    ///   - offerPath: what the offers' request paths hold (`/rtc/v1/whep/`, leaving out
    ///     SRS's publisher; `/janus/`).
    ///   - serverPorts: the server's UDP ports (SRS's one, Janus's range).
    init(tshark: URL, capture: String, offerPath: String, serverPorts: ClosedRange<Int>) throws {
        let bodies = { (filter: String, fields: [String]) throws -> [(row: [String], ufrag: Substring)] in
            try Self.rows(tshark, capture, filter: filter + " && http.file_data contains \"a=ice-ufrag:\"", fields + ["http.file_data"])
                .compactMap { row in Self.ufrag(in: row[fields.count]).map { (row, $0) } }
        }
        var offers: [Substring: (at: Double, chromium: Bool)] = [:]
        for (row, ufrag) in try bodies("http.request", ["frame.time_epoch", "http.user_agent", "http.request.uri"]) {
            guard let at = Double(row[0]), row[2].contains(offerPath), offers[ufrag] == nil else { continue }
            offers[ufrag] = (at, row[1].contains("Chrome"))
        }
        var answers: [Substring: Double] = [:]
        for (row, ufrag) in try bodies("http.response", ["frame.time_epoch"]) {
            guard let at = Double(row[0]), answers[ufrag] == nil else { continue }
            answers[ufrag] = at
        }
        var flows: [Int: Flow] = [:]
        let fields = ["frame.time_epoch", "udp.srcport", "udp.dstport", "stun.type", "stun.att.username", "dtls.record.content_type", "stun.id",
                      "dtls.handshake.type", "dtls.record.epoch"]
        for row in try Self.rows(tshark, capture, filter: "stun || dtls", fields) {
            guard let at = Double(row[0]), let source = Int(row[1]), let destination = Int(row[2]) else { continue }
            let fromPlayer = serverPorts.contains(destination)
            guard fromPlayer || serverPorts.contains(source) else { continue }
            flows[fromPlayer ? source : destination, default: Flow()]
                .add(at: at, fromPlayer: fromPlayer, stunType: row[3], username: row[4], stunID: row[6], contentTypes: row[5], handshakeTypes: row[7],
                     epochs: row[8])
        }
        let ms = { (from: Double?, to: Double?) -> Double? in from.flatMap { from in to.map { ($0 - from) * 1000 } } }
        players = flows.values.compactMap { flow -> (at: Double, player: Player)? in
            guard let ufrags = flow.ufrags, let offer = offers[ufrags.player], let answer = answers[ufrags.server],
                  let firstCheck = flow.firstCheck else { return nil }
            return (offer.at, Player(chromium: offer.chromium, signalingMs: (answer - offer.at) * 1000, applyingMs: (firstCheck - answer) * 1000,
                                     iceMs: ms(firstCheck, flow.usable), dtlsMs: ms(flow.usable, flow.done),
                                     serverCheckMs: flow.serverCheck.map { ($0 - answer) * 1000 }, iceRepeatMs: flow.iceRepeatMs,
                                     dtlsRepeatMs: flow.dtlsRepeatMs, dtlsClient: flow.playerIsDtlsClient))
        }.sorted { $0.at < $1.at }.map(\.player)
    }

    /// The first `a=ice-ufrag:` value in an HTTP body (ice-chars, RFC 8839 5.4).
    private static func ufrag(in body: String) -> Substring? {
        guard let range = body.range(of: "a=ice-ufrag:") else { return nil }
        return body[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" }
    }

    /// tshark's fields of the packets `filter` selects, one array per packet. STUN and DTLS
    /// are found by their heuristics before any dissector registered for the port: Janus's
    /// ports 10000-10999 hold 10253, which tshark otherwise reads as Wi-SUN's EAPOL relay
    /// (one peer's setup was missing from a capture for it).
    private static func rows(_ tshark: URL, _ capture: String, filter: String, _ fields: [String]) throws -> [[String]] {
        let (status, output) = try ExternalTool.run(tshark, ["-o", "udp.try_heuristic_first:TRUE", "-r", capture, "-Y", filter, "-T", "fields"]
                                                        + fields.flatMap { ["-e", $0] })
        guard status == 0 else { throw ExternalToolError("tshark -Y '\(filter)' exited \(status): \(output.suffix(500))") }
        return output.split(separator: "\n").map { line in
            let values = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return values + Array(repeating: "", count: max(0, fields.count - values.count))
        }.filter { $0.count >= fields.count }
    }
}
