import RTCBase

/// Inspects H.264 access units without decoding: IDR slices (nal_unit_type 5), the SPS
/// size (7.3.2.1.1, cropping applied) and rtcswarm's frame-identity SEI.
public enum H264Inspector {
    /// Inspects an access unit in Annex-B form up to its first slice: its SPS and SEI come
    /// before it (H.264 7.4.1.2.3) and the slices of an IDR picture are all IDR slices
    /// (7.4.1, nal_unit_type), so the slices' bytes, most of a keyframe's, are never
    /// scanned. Throws when it has no NAL unit or a malformed SPS or SEI.
    public static func inspect(accessUnit bytes: [UInt8]) throws(ParseError) -> FrameInspection {
        let units = AnnexB.nalUnits(in: bytes, last: { (1...5).contains($0 & 0x1F) })
        guard !units.isEmpty else { throw .invalid("no H.264 start code") }
        return try inspect(nalUnits: units.map { bytes[$0] })
    }

    /// Inspects the NAL units of one access unit (header byte first, no start codes), as an
    /// RTP depacketizer hands them out.
    public static func inspect(nalUnits: [ArraySlice<UInt8>]) throws(ParseError) -> FrameInspection {
        var result = FrameInspection(isKeyframe: false, resolution: nil)
        for unit in nalUnits {
            guard let first = unit.first else { throw .truncated("empty NAL unit") }
            guard first & 0x80 == 0 else { throw .invalid("forbidden_zero_bit set") }
            switch first & 0x1F {
            case 5: result.isKeyframe = true
            case 7: result.resolution = try H264Sps(nalUnit: unit).resolution
            case 6: result.stamp = try H264FrameSei.read(nalUnit: unit) ?? result.stamp
            default: break
            }
        }
        return result
    }
}
