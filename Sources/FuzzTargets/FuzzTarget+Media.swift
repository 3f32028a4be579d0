import Media
import RTCBase
import RTP

/// What a receiver makes of media payloads: RTP depacketizers, the bitstream inspectors
/// that check what arrives, and the media files a scenario names.
extension FuzzTarget {
    /// VP8, VP9, H.264, AV1 and Opus RTP payloads (RFC 7741 4, RFC 9628 4, RFC 6184 5, AV1
    /// RTP payload format 4, RFC 7587):
    /// whatever `inspect` accepts, `append` must take.
    public static let depacketizer = FuzzTarget(name: "depacketizer", seeds: {
        var vp8 = Vp8Packetizer()
        var vp9 = Vp9Packetizer(width: 160, height: 90)
        var h264 = H264Packetizer()
        var av1 = Av1Packetizer()
        return encodedFrames().flatMap { frame -> [[UInt8]] in
            let payloads: [RtpPayload] = switch frame.codec {
            case .vp8: vp8.packetize(frame.bytes, isKeyframe: frame.isKeyframe, maxPayloadSize: 200)
            case .vp9: vp9.packetize(frame.bytes, isKeyframe: frame.isKeyframe, maxPayloadSize: 200)
            case .av1: av1.packetize(frame.bytes, isKeyframe: frame.isKeyframe, maxPayloadSize: 200)
            default: h264.packetize(frame.bytes, isKeyframe: frame.isKeyframe, maxPayloadSize: 200)
                + h264.packetize(frame.bytes, isKeyframe: frame.isKeyframe, maxPayloadSize: 1200)
            }
            return payloads.prefix(4).map(\.bytes)
        }
    }, run: { input in
        let reader = ByteReader(input)
        let depacketizers: [any RtpDepacketizer] = [
            Vp8Depacketizer(), Vp9Depacketizer(), H264Depacketizer(), Av1Depacketizer(), OpusDepacketizer(),
        ]
        return depacketizers.reduce(false) { accepted, depacketizer in
            guard (try? depacketizer.inspect(reader)) != nil else { return accepted }
            var frame: [UInt8] = []
            do {
                try depacketizer.append(reader, to: &frame)
            } catch {
                preconditionFailure("\(type(of: depacketizer)).inspect accepted a payload that append refused: \(error)")
            }
            return true
        }
    })

    /// Encoded frames as the receiver inspects them: VP8 and VP9 frame headers (RFC 6386
    /// 9.1, VP9 bitstream 6.2), H.264 access units, SPS (H.264 7.3.2.1), the frame-stamp SEI,
    /// and AV1 temporal units and sequence headers (AV1 5.2, 5.5).
    public static let bitstream = FuzzTarget(name: "bitstream", seeds: {
        encodedFrames().map { Array($0.bytes.prefix(256)) }
            + [[0x67, 0x64, 0x00, 0x28, 0xAD, 0x84, 0x40, 0x6C, 0xA0, 0x3C, 0x02, 0x27, 0xED],
               H264FrameSei.nalUnit(for: FrameStamp(index: 77, captureTime: .zero))]
    }, run: { input in
        let vp8 = (try? Vp8Header.inspect(input)) != nil
        let vp9 = (try? Vp9Header.inspect(input)) != nil
        let h264 = (try? H264Inspector.inspect(accessUnit: input)) != nil
        let sps = (try? H264Sps(nalUnit: input[...])) != nil
        let sei = ((try? H264FrameSei.read(nalUnit: input[...])) ?? nil) != nil
        let units = !AnnexB.accessUnits(in: input).isEmpty
        let av1 = (try? Av1Inspector.inspect(temporalUnit: input)) != nil
        let sequenceHeader = (try? Av1SequenceHeader(payload: input[...])) != nil
        return vp8 || vp9 || h264 || sps || sei || units || av1 || sequenceHeader
    })

    /// The Y4M and IVF files a scenario can name as its video source.
    public static let mediafile = FuzzTarget(name: "mediafile", seeds: {
        var ivf = IvfWriter(codec: .vp8, resolution: Resolution(width: 4, height: 2))
        ivf.append([0x50, 0x01, 0x00], timestamp: 0)
        ivf.append([0x51, 0x02, 0x00, 0x07], timestamp: 1)
        return [Array("YUV4MPEG2 W4 H2 F30:1 Ip C420jpeg\nFRAME\n".utf8) + [UInt8](repeating: 0x80, count: 12), ivf.bytes]
    }, run: { input in
        var accepted = false
        if let reader = try? Y4mReader(bytes: input) {
            accepted = true
            for index in 0..<reader.frameCount { _ = reader.image(at: index) }
        }
        if let reader = try? IvfReader(bytes: input) {
            accepted = true
            for index in 0..<reader.frameCount { _ = reader.frame(at: index) }
        }
        return accepted
    })

    /// Two frames (a keyframe and a delta frame) of each video codec, made by the project's encoders.
    private static func encodedFrames() -> [EncodedFrame] {
        [Codec.vp8, .vp9, .h264, .av1].flatMap { codec -> [EncodedFrame] in
            guard let encoder = try? VideoEncoderConfig(codec: codec, bitrate: 300_000).makeEncoder() else { return [] }
            var source = VideoSource()
            return (0..<2).compactMap { index in
                (try? encoder.encode(source.frame(index: index, width: 160, height: 90, captureTime: .zero))) ?? nil
            }
        }
    }
}
