import Foundation

/// The closing report of aiortc_peer.py (its last stdout line, `"type": "summary"`).
public struct AiortcSummary: Decodable, Sendable {
    public var role: String
    /// Why the call failed (connection failed, timeout, bad description), or nil.
    public var error: String?
    /// Connection states in order ("connecting", "connected", ...).
    public var states: [String]
    /// Milliseconds after the script started: remote description applied, connected,
    /// first video frame decoded.
    public var remoteDescriptionMs: Double?
    public var connectedMs: Double?
    public var firstFrameMs: Double?
    /// Negotiated codec per kind ("video": "video/VP8").
    public var codecs: [String: String]
    /// The remote candidates its ICE agent knew at the end, "127.0.0.1 5000 host": from
    /// the remote description and trickled ones (peer-reflexive ones are not listed).
    public var remoteCandidates: [String]
    public var videoFramesSent: Int
    public var audioFramesSent: Int
    public var videoFramesDecoded: Int
    /// Decoded frames by size, "640x480": count.
    public var videoResolutions: [String: Int]
    /// Decoded frames that carried aiortc_peer.py's frame-number barcode (another
    /// aiortc peer's frames do; other senders' do not), whether those numbers rose
    /// strictly, and the first and last number.
    public var videoFramesTagged: Int
    public var videoTagsInOrder: Bool
    public var videoTagFirst: Int?
    public var videoTagLast: Int?
    /// Opus frames decoded: aiortc holds the last 4 packets in its audio jitter buffer.
    public var audioFramesDecoded: Int
    public var audioPacketsReceived: Int
    public var videoPacketsReceived: Int
    /// aiortc's getStats by "inbound-audio" / "outbound-video" ...: packets, lost,
    /// jitter (in RTP clock units), bytes.
    public var rtp: [String: [String: Double]]

    /// Decodes the JSON object the script printed.
    public init(_ object: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: object)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        self = try decoder.decode(Self.self, from: data)
    }

    /// Milliseconds from the remote description to "connected" (ICE + DTLS).
    public var setupMs: Double? {
        guard let connectedMs, let remoteDescriptionMs else { return nil }
        return connectedMs - remoteDescriptionMs
    }
}
