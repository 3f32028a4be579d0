import CVPX
import RTCBase

/// VP8 or VP9 through libvpx in its realtime mode: one pass, CBR, no lookahead
/// (`g_lag_in_frames = 0`), error resilient, never dropping a frame, keyframes every
/// `keyframeInterval` frames or on request. Speed: VP8 `cpu-used -6`, VP9 `cpu-used 8`
/// (what browsers use on desktops).
public final class VpxEncoder: VideoEncoder {
    public private(set) var config: VideoEncoderConfig
    private let context = UnsafeMutablePointer<vpx_codec_ctx_t>.allocate(capacity: 1)
    private var settings = vpx_codec_enc_cfg_t()
    private var size: Resolution?
    private var keyframeRequested = false
    private var timestamps: RtpTimestamps

    /// An encoder for `config` (codec `.vp8` or `.vp9`); libvpx starts at the first frame's size.
    public init(config: VideoEncoderConfig) throws(MediaError) {
        try config.check(encoder: "VpxEncoder", encodes: [.vp8, .vp9])
        self.config = config
        timestamps = RtpTimestamps(clockRate: 90_000, frameRate: config.frameRate)
    }

    deinit {
        if size != nil { vpx_codec_destroy(context) }
        context.deallocate()
    }

    private var interface: OpaquePointer {
        config.codec == .vp8 ? vpx_codec_vp8_cx() : vpx_codec_vp9_cx()
    }

    /// (Re)starts libvpx for frames of `resolution`.
    private func start(_ resolution: Resolution) throws(MediaError) {
        if size != nil {
            vpx_codec_destroy(context)
            size = nil
        }
        var settings = vpx_codec_enc_cfg_t()
        try check(vpx_codec_enc_config_default(interface, &settings, 0), "default config")
        settings.g_w = UInt32(resolution.width)
        settings.g_h = UInt32(resolution.height)
        settings.g_threads = UInt32(max(1, config.threads))
        settings.g_timebase = vpx_rational_t(num: 1, den: 90_000)
        settings.g_pass = VPX_RC_ONE_PASS
        settings.g_lag_in_frames = 0
        settings.g_error_resilient = vpx_codec_er_flags_t(VPX_ERROR_RESILIENT_DEFAULT)
        settings.rc_end_usage = VPX_CBR
        settings.rc_target_bitrate = UInt32(max(1, config.bitrate / 1000))
        settings.rc_dropframe_thresh = 0
        settings.rc_min_quantizer = 2
        settings.rc_max_quantizer = config.codec == .vp8 ? 63 : 56
        settings.rc_undershoot_pct = 50
        settings.rc_overshoot_pct = 50
        settings.rc_buf_initial_sz = 500
        settings.rc_buf_optimal_sz = 600
        settings.rc_buf_sz = 1000
        settings.kf_mode = VPX_KF_AUTO
        settings.kf_min_dist = 0
        settings.kf_max_dist = UInt32(config.keyframeInterval)
        self.settings = settings
        try check(rs_vpx_encoder_init(context, interface, &self.settings, 0), "init \(resolution)")
        size = resolution
        if config.codec == .vp8 {
            try control(VP8E_SET_CPUUSED.rawValue, -6)
            try control(VP8E_SET_NOISE_SENSITIVITY.rawValue, 0)
            try control(VP8E_SET_STATIC_THRESHOLD.rawValue, 1)
        } else {
            try control(VP8E_SET_CPUUSED.rawValue, 8)
            try control(VP9E_SET_AQ_MODE.rawValue, 0)
            try control(VP9E_SET_ROW_MT.rawValue, 1)
            try control(VP9E_SET_TILE_COLUMNS.rawValue, config.threads > 1 ? 1 : 0)
        }
        keyframeRequested = true
    }

    public func encode(_ frame: VideoFrame) throws(MediaError) -> EncodedFrame? {
        try frame.requireEvenSize()
        if size != frame.resolution { try start(frame.resolution) }
        let ticks = timestamps.ticks(index: frame.index)
        let flags: vpx_enc_frame_flags_t = keyframeRequested ? vpx_enc_frame_flags_t(VPX_EFLAG_FORCE_KF) : 0
        keyframeRequested = false
        let duration = UInt(max(1, (90_000 / config.frameRate).rounded()))
        var image = vpx_image_t()
        let status = frame.image.data.withUnsafeBufferPointer { buffer in
            let planes = UnsafeMutablePointer(mutating: buffer.baseAddress)
            vpx_img_wrap(&image, VPX_IMG_FMT_I420, UInt32(frame.width), UInt32(frame.height), 1, planes)
            return vpx_codec_encode(context, &image, vpx_codec_pts_t(ticks), duration, flags, UInt(VPX_DL_REALTIME))
        }
        try check(status, "encode frame \(frame.index)")
        var bytes: [UInt8] = []
        var isKeyframe = false
        var iterator: vpx_codec_iter_t?
        while let packet = vpx_codec_get_cx_data(context, &iterator) {
            guard packet.pointee.kind == VPX_CODEC_CX_FRAME_PKT else { continue }
            let coded = packet.pointee.data.frame
            if let buffer = coded.buf {
                bytes.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: coded.sz))
            }
            isKeyframe = isKeyframe || coded.flags & vpx_codec_frame_flags_t(VPX_FRAME_IS_KEY) != 0
        }
        guard !bytes.isEmpty else { return nil }
        return EncodedFrame(codec: config.codec, bytes: bytes, isKeyframe: isKeyframe, width: frame.width,
                            height: frame.height, index: frame.index, captureTime: frame.captureTime,
                            rtpTimestamp: UInt32(truncatingIfNeeded: ticks))
    }

    public func requestKeyframe() { keyframeRequested = true }

    public func setBitrate(_ bitsPerSecond: Int) throws(MediaError) {
        try config.setBitrate(bitsPerSecond)
        guard size != nil else { return }
        settings.rc_target_bitrate = UInt32(max(1, bitsPerSecond / 1000))
        try check(vpx_codec_enc_config_set(context, &settings), "set bitrate \(bitsPerSecond)")
    }

    public func setFrameRate(_ framesPerSecond: Double) throws(MediaError) {
        try config.setFrameRate(framesPerSecond)
        timestamps.setFrameRate(framesPerSecond)
    }

    private func control(_ id: UInt32, _ value: Int32) throws(MediaError) {
        try check(rs_vpx_control_int(context, Int32(id), value), "control \(id) = \(value)")
    }

    private func check(_ status: vpx_codec_err_t, _ what: String) throws(MediaError) {
        guard status != VPX_CODEC_OK else { return }
        let detail = vpx_codec_error_detail(context).map { String(cString: $0) } ?? ""
        throw MediaError(.codecFailure, "\(config.codec) \(what): \(String(cString: vpx_codec_err_to_string(status))) \(detail)")
    }
}
