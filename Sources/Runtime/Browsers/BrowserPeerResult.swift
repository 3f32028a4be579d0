import Foundation
import Report
import Scenario

/// What the cohort page wrote for one peer (`BrowserCohortPage`): its setup phases as it
/// timed them, how it failed if it did, and its `getStats()` figures.
struct BrowserPeerResult: Decodable {
    var id: String
    /// Wall-clock milliseconds since 1970.
    var startedAt: Double
    var endedAt: Double?
    /// `signaling_ms`, `ice_ms`, `dtls_ms`, `setup_ms`, each present once reached.
    var phases: [String: Double]
    var failedPhase: String?
    var error: String?
    var stats: BrowserStats?

    /// The result in a line of Chromium's log (`… "rtcswarm-cohort-result <base64>", source: …`);
    /// nil for any other line or one that does not decode.
    init?(logLine line: Substring) {
        guard let start = line.range(of: BrowserCohortPage.resultPrefix)?.upperBound else { return nil }
        let encoded = line[start...].prefix { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" || $0 == "=" }
        guard let json = Data(base64Encoded: String(encoded)),
              let result = try? JSONDecoder().decode(Self.self, from: json) else { return nil }
        self = result
    }

    /// Its record: failed when the page said so, when setup never finished, or when no
    /// media moved (a player or echo peer that received no video frames, a publisher that
    /// sent none).
    func record(id: String, group: Int, role: PeerGroup.Role, video: Bool, runStartEpochMs: Double) -> PeerRecord {
        var failure: (phase: String, reason: String)? = error.map { (failedPhase ?? "signaling", "Chromium: \($0)") }
        if failure == nil, phases["setup_ms"] == nil { failure = ("dtls", "Chromium never reached connectionState \"connected\"") }
        let receives = role != .publisher
        if failure == nil, video, (stats?.stream(receives ? "inbound" : "outbound", "video")?.frames ?? 0) == 0 {
            failure = ("media", receives ? "Chromium received no video frames" : "Chromium sent no video frames")
        }
        var record = PeerRecord(id: id, group: group, role: role.rawValue, startedAtMs: startedAt - runStartEpochMs,
                                endedAtMs: (endedAt ?? startedAt) - runStartEpochMs, phases: phases,
                                outcome: failure == nil ? .completed : .failed, failedPhase: failure?.phase, failureReason: failure?.reason,
                                browser: stats)
        record.client = PeerGroup.Client.chromium.rawValue
        return record
    }
}
