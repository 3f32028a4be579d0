/// Choosing an answer's codecs from a remote offer (JSEP RFC 9429 5.3.1) and local
/// capabilities.
public enum CodecNegotiation {
    /// True when `offered` and `local` are the same format: same name, clock rate and
    /// channel count; for H.264 also the same packetization-mode and profile (RFC 6184
    /// 8.2.2: the level may differ), for VP9 the same `profile-id`, for AV1 `profile`.
    public static func matches(_ offered: PayloadFormat, _ local: CodecCapability) -> Bool {
        let name = offered.name.lowercased()
        guard name == local.name.lowercased(), offered.clockRate == local.clockRate,
            (offered.channels ?? 1) == (local.channels ?? 1)
        else { return false }
        switch name {
        case "h264":
            let localCodec = local.codec
            guard offered.packetizationMode == localCodec.packetizationMode,
                let offeredID = offered.profileLevelID, let localID = localCodec.profileLevelID
            else { return false }
            return offeredID.profile == localID.profile
        case "vp9":
            return (offered.parameters.value("profile-id") ?? "0") == (local.parameters.value("profile-id") ?? "0")
        case "av1":
            return (offered.parameters.value("profile") ?? "0") == (local.parameters.value("profile") ?? "0")
        default:
            return true
        }
    }

    /// The answer's codecs for an offered section: every offered format that a local
    /// capability supports, in the offerer's order and with the offerer's payload types,
    /// each followed by its RTX format when both sides use RTX (paired by `apt`).
    /// Feedback is limited to what both sides list. Empty means the section is rejected.
    public static func answer(offered: [PayloadFormat], local: [CodecCapability]) -> [PayloadFormat] {
        var result: [PayloadFormat] = []
        for codec in offered where !codec.isRTX {
            guard let capability = local.first(where: { matches(codec, $0) }) else { continue }
            result.append(answerCodec(codec, capability))
            if capability.rtxPayloadType != nil,
                let rtx = offered.first(where: { $0.isRTX && $0.associatedPayloadType == codec.payloadType })
            {
                result.append(PayloadFormat(
                    payloadType: rtx.payloadType, name: rtx.name, clockRate: rtx.clockRate,
                    parameters: [SDPParameter("apt", "\(codec.payloadType)")]))
            }
        }
        return result
    }

    private static func answerCodec(_ offered: PayloadFormat, _ local: CodecCapability) -> PayloadFormat {
        var parameters = local.parameters
        if offered.name.lowercased() == "h264", let level = h264AnswerProfileLevelID(offered: offered, local: local) {
            parameters.set("packetization-mode", "\(offered.packetizationMode)")
            parameters.set("profile-level-id", level.description)
        }
        return PayloadFormat(
            payloadType: offered.payloadType, name: offered.name, clockRate: offered.clockRate,
            channels: offered.channels, parameters: parameters,
            feedback: local.feedback.filter { offered.feedback.contains($0) })
    }

    /// The `profile-level-id` an H.264 answer carries (RFC 6184 8.2.2): the offered
    /// profile; the local level when both sides allow level asymmetry, otherwise the
    /// lower of the two levels.
    public static func h264AnswerProfileLevelID(offered: PayloadFormat, local: CodecCapability) -> H264ProfileLevelID? {
        guard let offeredID = offered.profileLevelID, let localID = local.codec.profileLevelID else { return nil }
        let asymmetry = offered.parameters.value("level-asymmetry-allowed") == "1"
            && local.parameters.value("level-asymmetry-allowed") == "1"
        let level = asymmetry ? localID.level : min(offeredID.level, localID.level)
        return H264ProfileLevelID(profile: offeredID.profile, level: level)
    }
}
