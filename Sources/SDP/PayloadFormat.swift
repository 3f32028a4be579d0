/// One payload format of a media section: its `a=rtpmap`, `a=fmtp` and `a=rtcp-fb`
/// lines together (RFC 8866 6.6, 6.15; RFC 4585 4.2).
public struct PayloadFormat: Sendable, Hashable {
    public var payloadType: UInt8
    /// Encoding name as written (`opus`, `VP8`, `H264`, `rtx`); compare case-insensitively.
    public var name: String
    public var clockRate: Int
    /// Audio channels; nil when the rtpmap has no channel field (meaning 1).
    public var channels: Int?
    public var parameters: [SDPParameter]
    public var feedback: [FeedbackMechanism]

    public init(
        payloadType: UInt8, name: String, clockRate: Int, channels: Int? = nil,
        parameters: [SDPParameter] = [], feedback: [FeedbackMechanism] = []
    ) {
        self.payloadType = payloadType
        self.name = name
        self.clockRate = clockRate
        self.channels = channels
        self.parameters = parameters
        self.feedback = feedback
    }

    /// True for RTX retransmission formats (RFC 4588 8.6).
    public var isRTX: Bool { name.lowercased() == "rtx" }

    /// The `apt` of an RTX format: the payload type it repairs (RFC 4588 8.6).
    public var associatedPayloadType: UInt8? {
        parameters.value("apt").flatMap { UInt8($0) }.flatMap { $0 <= 127 ? $0 : nil }
    }

    /// H.264 `packetization-mode` (RFC 6184 8.1); 0 when absent.
    public var packetizationMode: Int { parameters.value("packetization-mode").flatMap { Int($0) } ?? 0 }

    /// H.264 `profile-level-id` (RFC 6184 8.1); Baseline level 1 (`42000a`) when absent.
    public var profileLevelID: H264ProfileLevelID? {
        guard let text = parameters.value("profile-level-id") else { return H264ProfileLevelID.default }
        return H264ProfileLevelID(text)
    }

    /// The lines describing this codec, in the order Chromium writes them.
    public var attributes: [SDPAttribute] {
        var result: [SDPAttribute] = [.rtpmap(RTPMap(payloadType: payloadType, name: name, clockRate: clockRate, channels: channels))]
        result += feedback.map { .rtcpFeedback(RTCPFeedback(payloadType: payloadType, mechanism: $0)) }
        if !parameters.isEmpty {
            result.append(.fmtp(FormatParameters(payloadType: payloadType, parameters: parameters)))
        }
        return result
    }
}

extension MediaDescription {
    /// The section's codecs in `m=` line order; formats without an `a=rtpmap` are left out.
    /// Wildcard `a=rtcp-fb:*` lines apply to every codec.
    public var codecs: [PayloadFormat] {
        var maps: [UInt8: RTPMap] = [:]
        var parameters: [UInt8: [SDPParameter]] = [:]
        var feedback: [UInt8?: [FeedbackMechanism]] = [:]
        for attribute in attributes {
            switch attribute {
            case .rtpmap(let map) where maps[map.payloadType] == nil: maps[map.payloadType] = map
            case .fmtp(let fmtp) where parameters[fmtp.payloadType] == nil: parameters[fmtp.payloadType] = fmtp.parameters
            case .rtcpFeedback(let line): feedback[line.payloadType, default: []].append(line.mechanism)
            default: break
            }
        }
        return formats.compactMap { format in
            guard let pt = UInt8(format), let map = maps[pt] else { return nil }
            return PayloadFormat(
                payloadType: pt, name: map.name, clockRate: map.clockRate, channels: map.channels,
                parameters: parameters[pt] ?? [], feedback: (feedback[nil] ?? []) + (feedback[pt] ?? []))
        }
    }

    /// The codec with payload type `pt`.
    public func codec(_ pt: UInt8) -> PayloadFormat? { codecs.first { $0.payloadType == pt } }

    /// Adds `codec` to the `m=` line's formats and its lines at the end of the section.
    public mutating func appendCodec(_ codec: PayloadFormat) {
        formats.append(String(codec.payloadType))
        for attribute in codec.attributes { append(attribute) }
    }
}
