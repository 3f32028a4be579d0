/// A codec this side can send and receive, with its preferred payload types (used when
/// offering) and whether it repairs losses with RTX (RFC 4588).
public struct CodecCapability: Sendable, Hashable {
    /// Encoding name (`opus`, `VP8`, `VP9`, `H264`, `H265`, `AV1`), matched case-insensitively.
    public var name: String
    public var clockRate: Int
    public var channels: Int?
    /// Format parameters this side advertises (`profile-level-id`, `packetization-mode`...).
    public var parameters: [SDPParameter]
    public var feedback: [FeedbackMechanism]
    public var payloadType: UInt8
    /// Payload type of the paired RTX format; nil for no RTX.
    public var rtxPayloadType: UInt8?

    public init(
        name: String, clockRate: Int, channels: Int? = nil, parameters: [SDPParameter] = [],
        feedback: [FeedbackMechanism] = [], payloadType: UInt8, rtxPayloadType: UInt8? = nil
    ) {
        self.name = name
        self.clockRate = clockRate
        self.channels = channels
        self.parameters = parameters
        self.feedback = feedback
        self.payloadType = payloadType
        self.rtxPayloadType = rtxPayloadType
    }

    /// Video feedback every WebRTC stack offers: NACK, PLI, FIR, REMB, transport-cc.
    public static let videoFeedback: [FeedbackMechanism] = [.remb, .transportCC, .fir, .nack, .pli]

    /// Opus (RFC 7587 7): 48 kHz, 2 channels, in-band FEC.
    public static func opus(payloadType: UInt8 = 111) -> CodecCapability {
        CodecCapability(
            name: "opus", clockRate: 48_000, channels: 2,
            parameters: [SDPParameter("minptime", "10"), SDPParameter("useinbandfec", "1")],
            feedback: [.transportCC], payloadType: payloadType)
    }

    /// VP8 (RFC 7741 6.1).
    public static func vp8(payloadType: UInt8 = 96, rtxPayloadType: UInt8? = 97) -> CodecCapability {
        CodecCapability(
            name: "VP8", clockRate: 90_000, feedback: videoFeedback, payloadType: payloadType,
            rtxPayloadType: rtxPayloadType)
    }

    /// VP9 (RFC 9628 6), `profile-id` 0 by default.
    public static func vp9(profileID: Int = 0, payloadType: UInt8 = 98, rtxPayloadType: UInt8? = 99) -> CodecCapability {
        CodecCapability(
            name: "VP9", clockRate: 90_000, parameters: [SDPParameter("profile-id", "\(profileID)")],
            feedback: videoFeedback, payloadType: payloadType, rtxPayloadType: rtxPayloadType)
    }

    /// H.264 (RFC 6184 8.1): Constrained Baseline 3.1 (`42e01f`) and packetization-mode 1
    /// by default, which SRS prefers.
    public static func h264(
        profileLevelID: H264ProfileLevelID = H264ProfileLevelID(profile: .constrainedBaseline, level: .level3_1),
        packetizationMode: Int = 1, payloadType: UInt8 = 102, rtxPayloadType: UInt8? = 103
    ) -> CodecCapability {
        CodecCapability(
            name: "H264", clockRate: 90_000,
            parameters: [
                SDPParameter("level-asymmetry-allowed", "1"),
                SDPParameter("packetization-mode", "\(packetizationMode)"),
                SDPParameter("profile-level-id", profileLevelID.description),
            ],
            feedback: videoFeedback, payloadType: payloadType, rtxPayloadType: rtxPayloadType)
    }

    /// H.265 (RFC 7798 7.1): Main profile (`profile-id=1`), main tier, level 5.1
    /// (`level-id=153`, up to 4096x2160 at 30 fps: what this side decodes), one RTP
    /// stream (`tx-mode=SRST`). SRS takes it on its API with `?codec=hevc`.
    public static func h265(levelID: Int = 153, payloadType: UInt8 = 104, rtxPayloadType: UInt8? = 105) -> CodecCapability {
        CodecCapability(
            name: "H265", clockRate: 90_000,
            parameters: [
                SDPParameter("level-id", "\(levelID)"),
                SDPParameter("profile-id", "1"),
                SDPParameter("tier-flag", "0"),
                SDPParameter("tx-mode", "SRST"),
            ],
            feedback: videoFeedback, payloadType: payloadType, rtxPayloadType: rtxPayloadType)
    }

    /// AV1 (AV1 RTP payload format v1.0, 7.1): no parameters, so profile 0 (Main), level
    /// 5.1 and main tier, the defaults of 7.2; payload type 45 with RTX 46, as browsers
    /// number it. SRS takes it on its API with `?codec=av1`.
    public static func av1(payloadType: UInt8 = 45, rtxPayloadType: UInt8? = 46) -> CodecCapability {
        CodecCapability(name: "AV1", clockRate: 90_000, feedback: videoFeedback, payloadType: payloadType, rtxPayloadType: rtxPayloadType)
    }

    /// The codec as written in an offer.
    public var codec: PayloadFormat {
        PayloadFormat(
            payloadType: payloadType, name: name, clockRate: clockRate, channels: channels,
            parameters: parameters, feedback: feedback)
    }

    /// The RTX format that repairs `codec`, if this capability uses RTX.
    public var rtxCodec: PayloadFormat? {
        rtxPayloadType.map { PayloadFormat(payloadType: $0, name: "rtx", clockRate: clockRate, parameters: [SDPParameter("apt", "\(payloadType)")]) }
    }
}
