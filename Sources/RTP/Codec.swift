/// The codecs rtcswarm sends and receives, one name from the encoder to the report: the RTP
/// payload formats VP8 (RFC 7741), VP9 (RFC 9628), H.264 packetization-mode 1 (RFC 6184),
/// H.265 (RFC 7798), AV1 (the AOMedia RTP payload format v1.0) and Opus (RFC 7587). The raw
/// value is the SDP encoding name.
public enum Codec: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case vp8 = "VP8"
    case vp9 = "VP9"
    case h264 = "H264"
    case h265 = "H265"
    case av1 = "AV1"
    case opus = "opus"

    /// The codec an SDP encoding name stands for (matched case-insensitively).
    public init?(encodingName: String) {
        guard let codec = Self.allCases.first(where: { $0.rawValue.lowercased() == encodingName.lowercased() }) else {
            return nil
        }
        self = codec
    }

    /// The RTP clock rate (RFC 7741 4.1, RFC 9628 4.1, RFC 6184 8.1, RFC 7798 7.1, AV1 RTP 7.1, RFC 7587 4.1).
    public var clockRate: Int { self == .opus ? 48_000 : 90_000 }

    public var isVideo: Bool { self != .opus }

    public var description: String { rawValue }
}
