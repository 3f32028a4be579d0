import RTCBase
import RTP

/// The depacketizer of one receive stream, chosen by the negotiated codec, so one
/// `FrameAssembler` type serves every codec.
struct CodecDepacketizer: RtpDepacketizer {
    let codec: Codec

    func inspect(_ payload: ByteReader) throws(ParseError) -> RtpPayloadInfo {
        switch codec {
        case .vp8: try Vp8Depacketizer().inspect(payload)
        case .vp9: try Vp9Depacketizer().inspect(payload)
        case .h264: try H264Depacketizer().inspect(payload)
        case .h265: try H265Depacketizer().inspect(payload)
        case .av1: try Av1Depacketizer().inspect(payload)
        case .opus: try OpusDepacketizer().inspect(payload)
        }
    }

    func append(_ payload: ByteReader, to frame: inout [UInt8]) throws(ParseError) {
        switch codec {
        case .vp8: try Vp8Depacketizer().append(payload, to: &frame)
        case .vp9: try Vp9Depacketizer().append(payload, to: &frame)
        case .h264: try H264Depacketizer().append(payload, to: &frame)
        case .h265: try H265Depacketizer().append(payload, to: &frame)
        case .av1: try Av1Depacketizer().append(payload, to: &frame)
        case .opus: try OpusDepacketizer().append(payload, to: &frame)
        }
    }
}
