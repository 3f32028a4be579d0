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
/// - `dtls`: from there to the server's final flight (its ChangeCipherSpec, RFC 6347
///   4.2.4: SRS answers `a=setup:passive`, so the player is the DTLS client);
/// - `setup`: signaling + ice + dtls, the time the network, the server and the client's
///   pacing and timers took.
///
/// A player is Chromium when its HTTP User-Agent names Chrome and its checks carry
/// GOOG-NETWORK-INFO (attribute 0xC057, which libwebrtc adds and rtcswarm does not). Each
/// POST is matched to the first unmatched flow of the same client whose first check came
/// after it; players arrive far enough apart that the order decides.
struct WireSetupPhases {
    struct Player {
        var chromium: Bool
        var signalingMs: Double
        var applyingMs: Double
        var iceMs: Double?
        var dtlsMs: Double?
        var setupMs: Double? { iceMs.flatMap { ice in dtlsMs.map { signalingMs + ice + $0 } } }
    }

    private struct Flow {
        var chromium = false
        var firstCheck: Double?
        var usable: Double?
        var done: Double?
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
        var answers: [String: Double] = [:]
        for row in try Self.rows(tshark, capture, filter: "http.response", ["http.request_in", "frame.time_epoch"]) {
            answers[row[0]] = Double(row[1])
        }
        var flows: [Int: Flow] = [:]
        let fields = ["frame.time_epoch", "udp.srcport", "udp.dstport", "stun.type", "stun.att.type", "dtls.record.content_type"]
        for row in try Self.rows(tshark, capture, filter: "stun || dtls", fields) {
            guard let at = Double(row[0]), let source = Int(row[1]), let destination = Int(row[2]) else { continue }
            let fromPlayer = destination == rtcPort
            guard fromPlayer || source == rtcPort else { continue }
            var flow = flows[fromPlayer ? source : destination, default: Flow()]
            if fromPlayer, row[3] == "0x0001" {
                flow.firstCheck = flow.firstCheck ?? at
                flow.chromium = flow.chromium || row[4].split(separator: ",").contains("0xc057")
            }
            if !fromPlayer, row[3] == "0x0101" { flow.usable = flow.usable ?? at }
            if !fromPlayer, row[5].split(separator: ",").contains("20") { flow.done = flow.done ?? at }
            flows[fromPlayer ? source : destination] = flow
        }
        var unmatched = flows.values.filter { $0.firstCheck != nil }.sorted { $0.firstCheck! < $1.firstCheck! }
        players = requests.sorted { $0.at < $1.at }.compactMap { request in
            guard let answer = answers[request.frame],
                  let index = unmatched.firstIndex(where: { $0.chromium == request.chromium && $0.firstCheck! > request.at }) else { return nil }
            let flow = unmatched.remove(at: index)
            let ms = { (from: Double?, to: Double?) -> Double? in from.flatMap { from in to.map { ($0 - from) * 1000 } } }
            return Player(chromium: request.chromium, signalingMs: (answer - request.at) * 1000, applyingMs: (flow.firstCheck! - answer) * 1000,
                          iceMs: ms(flow.firstCheck, flow.usable), dtlsMs: ms(flow.usable, flow.done))
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
