import RTCBase

/// Inspects H.265 access units without decoding: IRAP pictures (NAL types 16-21, H.265
/// 7.4.2.2) and the SPS size (7.3.2.2.1, conformance window applied).
public enum H265Inspector {
    /// Inspects an access unit in Annex-B form. Throws when it has no NAL unit or a
    /// malformed SPS.
    public static func inspect(accessUnit bytes: [UInt8]) throws(ParseError) -> FrameInspection {
        let units = AnnexB.nalUnits(in: bytes)
        guard !units.isEmpty else { throw .invalid("no H.265 start code") }
        var result = FrameInspection(isKeyframe: false, resolution: nil)
        for range in units {
            let unit = bytes[range]
            guard unit.count >= 2 else { throw .truncated("H.265 NAL unit header") }
            guard unit[unit.startIndex] & 0x80 == 0 else { throw .invalid("forbidden_zero_bit set") }
            switch unit[unit.startIndex] >> 1 & 0x3F {
            case 16...21: result.isKeyframe = true
            case H265Sps.nalType: result.resolution = try H265Sps(nalUnit: unit).resolution
            default: break
            }
        }
        return result
    }
}
