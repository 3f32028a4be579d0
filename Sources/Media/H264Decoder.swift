import COpenH264

/// H.264 decoding through OpenH264 (`DecodeFrameNoDelay`: one access unit in, its picture
/// out). Error concealment is off, so a corrupted, truncated or unreferenced frame is a
/// `MediaError` rather than a smeared picture; decoding recovers at the next IDR.
public final class H264Decoder: VideoDecoder {
    private let decoder: UnsafeMutablePointer<ISVCDecoder?>

    /// A decoder for Annex-B access units (constrained baseline and above, 8-bit 4:2:0).
    public init() throws(MediaError) {
        var created: UnsafeMutablePointer<ISVCDecoder?>?
        guard WelsCreateDecoder(&created) == 0, let created else {
            throw MediaError(.codecFailure, "WelsCreateDecoder failed")
        }
        var traceLevel = Int32(WELS_LOG_QUIET)  // failures come back as decoding states
        _ = rs_h264_decoder_set_option(created, DECODER_OPTION_TRACE_LEVEL, &traceLevel)
        var parameters = SDecodingParam()
        parameters.eEcActiveIdc = ERROR_CON_DISABLE
        parameters.sVideoProperty.eVideoBsType = VIDEO_BITSTREAM_AVC
        guard rs_h264_decoder_initialize(created, &parameters) == 0 else {
            WelsDestroyDecoder(created)
            throw MediaError(.codecFailure, "OpenH264 decoder Initialize failed")
        }
        decoder = created
    }

    deinit {
        _ = rs_h264_decoder_uninitialize(decoder)
        WelsDestroyDecoder(decoder)
    }

    public func decode(_ bytes: [UInt8]) throws(MediaError) -> I420Image? {
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else {
            throw MediaError(.corruptInput, "H264: empty access unit")
        }
        var planes: [UnsafeMutablePointer<UInt8>?] = [nil, nil, nil]
        var info = SBufferInfo()
        let state = bytes.withUnsafeBufferPointer { buffer in
            planes.withUnsafeMutableBufferPointer { planes in
                rs_h264_decoder_decode(decoder, buffer.baseAddress, Int32(buffer.count), planes.baseAddress, &info)
            }
        }
        guard state.rawValue == 0 else {
            throw MediaError(.corruptInput, "H264: decoding state 0x\(String(state.rawValue, radix: 16))")
        }
        guard info.iBufferStatus == 1 else { return nil }
        let picture = info.UsrData.sSystemBuffer
        guard let y = planes[0], let u = planes[1], let v = planes[2], picture.iWidth > 0, picture.iHeight > 0 else {
            throw MediaError(.corruptInput, "H264: decoder returned no planes")
        }
        let chromaStride = Int(picture.iStride.1)
        return I420Image(width: Int(picture.iWidth), height: Int(picture.iHeight),
                         planes: [UnsafePointer(y), UnsafePointer(u), UnsafePointer(v)],
                         strides: [Int(picture.iStride.0), chromaStride, chromaStride])
    }
}
