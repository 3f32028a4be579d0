import RTP

/// The packetizer of one send stream, chosen by the negotiated codec. VP8 and VP9 keep
/// their picture ID across frames, so one lives as long as its stream.
enum CodecPacketizer: Sendable {
    case vp8(Vp8Packetizer)
    case vp9(Vp9Packetizer)
    case h264(H264Packetizer)
    case h265(H265Packetizer)
    case av1(Av1Packetizer)
    case opus(OpusPacketizer)

    init(codec: Codec, pictureId: UInt16) {
        switch codec {
        case .vp8: self = .vp8(Vp8Packetizer(initialPictureId: pictureId))
        case .vp9: self = .vp9(Vp9Packetizer(width: 0, height: 0, initialPictureId: pictureId))
        case .h264: self = .h264(H264Packetizer())
        case .h265: self = .h265(H265Packetizer())
        case .av1: self = .av1(Av1Packetizer())
        case .opus: self = .opus(OpusPacketizer())
        }
    }

    /// The RTP payloads of `frame`, none above `maxPayloadSize` bytes (Opus packets go whole).
    mutating func packetize(_ frame: EncodedMediaFrame, maxPayloadSize: Int) -> [RtpPayload] {
        switch self {
        case .vp8(var packetizer):
            defer { self = .vp8(packetizer) }
            return packetizer.packetize(frame.bytes, isKeyframe: frame.isKeyframe, maxPayloadSize: maxPayloadSize)
        case .vp9(var packetizer):
            defer { self = .vp9(packetizer) }
            if frame.isKeyframe {
                packetizer.resolution = .init(width: UInt16(clamping: frame.width), height: UInt16(clamping: frame.height))
            }
            return packetizer.packetize(frame.bytes, isKeyframe: frame.isKeyframe, maxPayloadSize: maxPayloadSize)
        case .h264(var packetizer):
            defer { self = .h264(packetizer) }
            return packetizer.packetize(frame.bytes, isKeyframe: frame.isKeyframe, maxPayloadSize: maxPayloadSize)
        case .h265(var packetizer):
            defer { self = .h265(packetizer) }
            return packetizer.packetize(frame.bytes, isKeyframe: frame.isKeyframe, maxPayloadSize: maxPayloadSize)
        case .av1(var packetizer):
            defer { self = .av1(packetizer) }
            return packetizer.packetize(frame.bytes, isKeyframe: frame.isKeyframe, maxPayloadSize: maxPayloadSize)
        case .opus(var packetizer):
            defer { self = .opus(packetizer) }
            return packetizer.packetize(frame.bytes, isKeyframe: frame.isKeyframe, maxPayloadSize: maxPayloadSize)
        }
    }
}
