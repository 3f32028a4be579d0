import Foundation
import Net
import WebRTCTestKit

/// What Tests/Interop/pion's server says at `/stats` (its stats.go): per published track
/// the bitstream counts and the feedback Pion sent the publisher, per session the tracks
/// it sent and the feedback it got.
struct PionStats: Decodable {
    struct Feedback: Decodable, Equatable {
        var nackPackets: Int
        var nackedSeqs: Int
        var plis: Int
        var firs: Int
    }

    /// A received track: a published one (with its RTX and feedback figures) or one an
    /// echo peer received (without).
    struct PublishedTrack: Decodable {
        var kind: String
        var mimeType: String
        var ssrc: UInt32
        var packets: Int
        var frames: Int
        var keyframes: Int
        var resolutions: [String]
        var framesByResolution: [String: Int]
        var rtxSsrc: UInt32?
        var rtxPackets: Int?
        var feedbackSent: Feedback?
    }

    /// A track the server sends: `retransmissions` counts packets that repeated a sequence
    /// number; `resent`, `nackUnanswered` and `nackExpired` are its NACK responder's
    /// (resend.go) sequence numbers resent, asked for but not held (not yet received from
    /// the publisher, or out of the ring), and of those out of the ring.
    struct SentTrack: Decodable {
        var kind: String
        var ssrc: UInt32
        var packets: Int
        var retransmissions: Int
        var resent: Int
        var nackUnanswered: Int
        var nackExpired: Int
        var feedbackReceived: Feedback
    }

    struct Session: Decodable {
        var id: String
        var role: String
        var stream: String?
        var state: String
        var sent: [SentTrack]
        var received: [PublishedTrack]?
    }

    var streams: [String: [PublishedTrack]]
    var sessions: [Session]

    /// The server's `/stats` now.
    static func read(_ server: PionServer) throws -> PionStats {
        let endpoint = Endpoint(scheme: .http, host: "127.0.0.1", port: server.port)
        guard let body = LoopbackHTTP.get(endpoint, target: "/stats") else { throw ExternalToolError("the Pion server's /stats did not answer") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(PionStats.self, from: Data(body.utf8))
    }

    /// The video track published on `stream`.
    func video(of stream: String) throws -> PublishedTrack {
        guard let track = streams[stream]?.first(where: { $0.kind == "video" }) else {
            throw ExternalToolError("Pion has no video on stream \(stream): \(streams.keys.sorted())")
        }
        return track
    }

    /// The video track the server sends with SSRC `ssrc` (to a player or echo offerer).
    func sentVideo(ssrc: UInt32) -> SentTrack? {
        sessions.lazy.flatMap(\.sent).first { $0.kind == "video" && $0.ssrc == ssrc }
    }
}
