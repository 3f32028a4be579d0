import RTCBase
import RTP

/// Inspects AV1 temporal units without decoding: a key frame from the first frame
/// header's frame_type (AV1 5.9.2) and the size from the sequence header (5.5).
public enum Av1Inspector {
    /// Inspects a temporal unit in the low-overhead bitstream format (AV1 5.2). Throws when
    /// it has no OBU, an OBU runs past the end, or the sequence header is malformed.
    public static func inspect(temporalUnit bytes: [UInt8]) throws(ParseError) -> FrameInspection {
        let units = try Av1Obu.split(bytes)
        guard !units.isEmpty else { throw .truncated("no AV1 OBU") }
        var result = FrameInspection(isKeyframe: false, resolution: nil)
        var reducedStillPictureHeader = false
        var frameSeen = false
        for unit in units {
            switch unit.type {
            case Av1Obu.sequenceHeader:
                let header = try Av1SequenceHeader(payload: unit.payload)
                result.resolution = header.maximumSize
                reducedStillPictureHeader = header.reducedStillPictureHeader
            case Av1Obu.frame, Av1Obu.frameHeader:
                guard !frameSeen else { break }
                frameSeen = true
                // A reduced still-picture header has no frame_type: always a key frame.
                guard !reducedStillPictureHeader else {
                    result.isKeyframe = true
                    break
                }
                guard let key = unit.isKeyFrameHeader else { throw .truncated("AV1 frame header") }
                result.isKeyframe = key
            default:
                break
            }
        }
        return result
    }
}
