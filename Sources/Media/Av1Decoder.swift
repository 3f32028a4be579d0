import CAOM

/// AV1 decoding through libaom's decoder (the library the encoder uses, so no second
/// package): one temporal unit in the low-overhead format in, its picture out. A
/// temporal unit libaom cannot decode, or decodes but flags as corrupt, is a `MediaError`
/// (`.corruptInput`); decoding recovers at the next key frame.
public final class Av1Decoder: VideoDecoder {
    private let context = UnsafeMutablePointer<aom_codec_ctx_t>.allocate(capacity: 1)

    /// A decoder using `threads` libaom threads.
    public init(threads: Int = 1) throws(MediaError) {
        var settings = aom_codec_dec_cfg_t(threads: UInt32(max(1, threads)), w: 0, h: 0, allow_lowbitdepth: 1)
        let status = rs_aom_decoder_init(context, aom_codec_av1_dx(), &settings, 0)
        guard status == AOM_CODEC_OK else {
            context.deallocate()
            throw MediaError(.codecFailure, "AV1 decoder init: \(String(cString: aom_codec_err_to_string(status)))")
        }
    }

    deinit {
        aom_codec_destroy(context)
        context.deallocate()
    }

    public func decode(_ bytes: [UInt8]) throws(MediaError) -> I420Image? {
        guard !bytes.isEmpty else { throw MediaError(.corruptInput, "AV1: empty temporal unit") }
        let status = bytes.withUnsafeBufferPointer { aom_codec_decode(context, $0.baseAddress, $0.count, nil) }
        guard status == AOM_CODEC_OK else {
            let detail = aom_codec_error_detail(context).map { String(cString: $0) } ?? ""
            throw MediaError(.corruptInput, "AV1: \(String(cString: aom_codec_err_to_string(status))) \(detail)")
        }
        var corrupted: Int32 = 0
        if rs_aom_control_int_pointer(context, Int32(AOMD_GET_FRAME_CORRUPTED.rawValue), &corrupted) == AOM_CODEC_OK, corrupted != 0 {
            throw MediaError(.corruptInput, "AV1: frame decoded from damaged data")
        }
        var iterator: aom_codec_iter_t?
        var picture: I420Image?
        while let image = aom_codec_get_frame(context, &iterator) {
            picture = try Self.copy(image.pointee)
        }
        return picture
    }

    /// Copies libaom's strided 8-bit I420 planes into an `I420Image`.
    private static func copy(_ image: aom_image_t) throws(MediaError) -> I420Image {
        guard image.fmt == AOM_IMG_FMT_I420, let y = image.planes.0, let u = image.planes.1, let v = image.planes.2,
              image.d_w > 0, image.d_h > 0
        else { throw MediaError(.corruptInput, "AV1: decoded picture is not 8-bit I420 (format \(image.fmt.rawValue))") }
        return I420Image(width: Int(image.d_w), height: Int(image.d_h),
                         planes: [UnsafePointer(y), UnsafePointer(u), UnsafePointer(v)],
                         strides: [Int(image.stride.0), Int(image.stride.1), Int(image.stride.2)])
    }
}
