import RTP
import CVPX

/// VP8 or VP9 decoding through libvpx. A corrupted or truncated frame, or one libvpx
/// decodes but flags as corrupt (a reference was damaged), is a `MediaError`
/// (`.corruptInput`); decoding recovers at the next keyframe.
public final class VpxDecoder: VideoDecoder {
    public let codec: Codec
    private let context = UnsafeMutablePointer<vpx_codec_ctx_t>.allocate(capacity: 1)

    /// A decoder for `.vp8` or `.vp9` using `threads` libvpx threads.
    public init(codec: Codec, threads: Int = 1) throws(MediaError) {
        guard codec == .vp8 || codec == .vp9 else {
            context.deallocate()
            throw MediaError(.configuration, "VpxDecoder decodes VP8 or VP9, not \(codec)")
        }
        self.codec = codec
        var settings = vpx_codec_dec_cfg_t(threads: UInt32(max(1, threads)), w: 0, h: 0)
        let interface = codec == .vp8 ? vpx_codec_vp8_dx() : vpx_codec_vp9_dx()
        let status = rs_vpx_decoder_init(context, interface, &settings, 0)
        guard status == VPX_CODEC_OK else {
            context.deallocate()
            throw MediaError(.codecFailure, "\(codec) decoder init: \(String(cString: vpx_codec_err_to_string(status)))")
        }
    }

    deinit {
        vpx_codec_destroy(context)
        context.deallocate()
    }

    public func decode(_ bytes: [UInt8]) throws(MediaError) -> I420Image? {
        guard !bytes.isEmpty else { throw MediaError(.corruptInput, "\(codec): empty frame") }
        let status = bytes.withUnsafeBufferPointer { buffer in
            vpx_codec_decode(context, buffer.baseAddress, UInt32(buffer.count), nil, 0)
        }
        guard status == VPX_CODEC_OK else {
            let detail = vpx_codec_error_detail(context).map { String(cString: $0) } ?? ""
            throw MediaError(.corruptInput, "\(codec): \(String(cString: vpx_codec_err_to_string(status))) \(detail)")
        }
        var corrupted: Int32 = 0
        if rs_vpx_control_int_pointer(context, Int32(VP8D_GET_FRAME_CORRUPTED.rawValue), &corrupted) == VPX_CODEC_OK,
           corrupted != 0 {
            throw MediaError(.corruptInput, "\(codec): frame decoded from damaged data")
        }
        var iterator: vpx_codec_iter_t?
        var picture: I420Image?
        while let image = vpx_codec_get_frame(context, &iterator) {
            picture = try Self.copy(image.pointee)
        }
        return picture
    }

    /// Copies libvpx's strided 8-bit I420 planes into an `I420Image`.
    private static func copy(_ image: vpx_image_t) throws(MediaError) -> I420Image {
        guard image.fmt == VPX_IMG_FMT_I420, let y = image.planes.0, let u = image.planes.1, let v = image.planes.2,
              image.d_w > 0, image.d_h > 0
        else { throw MediaError(.corruptInput, "decoded picture is not 8-bit I420 (format \(image.fmt.rawValue))") }
        return I420Image(width: Int(image.d_w), height: Int(image.d_h),
                         planes: [UnsafePointer(y), UnsafePointer(u), UnsafePointer(v)],
                         strides: [Int(image.stride.0), Int(image.stride.1), Int(image.stride.2)])
    }
}
