import CAOM
import RTCBase

/// AV1 through libaom in its realtime usage: one pass, CBR, no lookahead
/// (`g_lag_in_frames = 0`: one temporal unit out per frame in), speed 10 (the fastest,
/// only allowed in realtime), one tile, keyframes every `keyframeInterval` frames or on
/// request. Output is the low-overhead bitstream format (AV1 5.2): a temporal delimiter,
/// the sequence header before each key frame, then the frame OBU.
public final class Av1Encoder: VideoEncoder {
    public private(set) var config: VideoEncoderConfig
    private let context = UnsafeMutablePointer<aom_codec_ctx_t>.allocate(capacity: 1)
    private var settings = aom_codec_enc_cfg_t()
    private var size: Resolution?
    private var keyframeRequested = false
    private var timestamps: RtpTimestamps

    /// libaom's fastest realtime speed (aomcx.h AOME_SET_CPUUSED: 10 only in realtime).
    static let speed: Int32 = 10

    /// An encoder for `config` (codec `.av1`); libaom starts at the first frame's size.
    public init(config: VideoEncoderConfig) throws(MediaError) {
        try config.check(encoder: "Av1Encoder", encodes: [.av1])
        self.config = config
        timestamps = RtpTimestamps(clockRate: 90_000, frameRate: config.frameRate)
    }

    deinit {
        if size != nil { aom_codec_destroy(context) }
        context.deallocate()
    }

    /// (Re)starts libaom for frames of `resolution`; its first frame is a key frame.
    private func start(_ resolution: Resolution) throws(MediaError) {
        if size != nil {
            aom_codec_destroy(context)
            size = nil
        }
        let interface = aom_codec_av1_cx()
        var settings = aom_codec_enc_cfg_t()
        try check(aom_codec_enc_config_default(interface, &settings, UInt32(AOM_USAGE_REALTIME)), "default config")
        settings.g_w = UInt32(resolution.width)
        settings.g_h = UInt32(resolution.height)
        settings.g_threads = UInt32(max(1, config.threads))
        settings.g_timebase = aom_rational_t(num: 1, den: 90_000)
        settings.g_pass = AOM_RC_ONE_PASS
        settings.g_lag_in_frames = 0
        settings.rc_end_usage = AOM_CBR
        settings.rc_target_bitrate = UInt32(max(1, config.bitrate / 1000))
        settings.rc_dropframe_thresh = 0
        settings.rc_undershoot_pct = 50
        settings.rc_overshoot_pct = 50
        settings.rc_buf_initial_sz = 500
        settings.rc_buf_optimal_sz = 600
        settings.rc_buf_sz = 1000
        settings.kf_mode = AOM_KF_AUTO
        settings.kf_min_dist = 0
        settings.kf_max_dist = UInt32(config.keyframeInterval)
        self.settings = settings
        try check(rs_aom_encoder_init(context, interface, &self.settings, 0), "init \(resolution)")
        size = resolution
        try control(AOME_SET_CPUUSED.rawValue, Self.speed)
        try control(AV1E_SET_AQ_MODE.rawValue, 3)  // cyclic refresh, as realtime senders use
        try control(AV1E_SET_TILE_COLUMNS.rawValue, 0)
        try control(AV1E_SET_ROW_MT.rawValue, config.threads > 1 ? 1 : 0)
        keyframeRequested = true
    }

    public func encode(_ frame: VideoFrame) throws(MediaError) -> EncodedFrame? {
        try frame.requireEvenSize()
        if size != frame.resolution { try start(frame.resolution) }
        let ticks = timestamps.ticks(index: frame.index)
        let flags: aom_enc_frame_flags_t = keyframeRequested ? aom_enc_frame_flags_t(AOM_EFLAG_FORCE_KF) : 0
        keyframeRequested = false
        let duration = UInt(max(1, (90_000 / config.frameRate).rounded()))
        var image = aom_image_t()
        let status = frame.image.data.withUnsafeBufferPointer { buffer in
            let planes = UnsafeMutablePointer(mutating: buffer.baseAddress)
            aom_img_wrap(&image, AOM_IMG_FMT_I420, UInt32(frame.width), UInt32(frame.height), 1, planes)
            return aom_codec_encode(context, &image, aom_codec_pts_t(ticks), duration, flags)
        }
        try check(status, "encode frame \(frame.index)")
        var bytes: [UInt8] = []
        var isKeyframe = false
        var iterator: aom_codec_iter_t?
        while let packet = aom_codec_get_cx_data(context, &iterator) {
            guard packet.pointee.kind == AOM_CODEC_CX_FRAME_PKT else { continue }
            let coded = packet.pointee.data.frame
            if let buffer = coded.buf {
                bytes.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: coded.sz))
            }
            isKeyframe = isKeyframe || coded.flags & aom_codec_frame_flags_t(AOM_FRAME_IS_KEY) != 0
        }
        guard !bytes.isEmpty else { return nil }
        return EncodedFrame(codec: .av1, bytes: bytes, isKeyframe: isKeyframe, width: frame.width, height: frame.height,
                            index: frame.index, captureTime: frame.captureTime, rtpTimestamp: UInt32(truncatingIfNeeded: ticks))
    }

    public func requestKeyframe() { keyframeRequested = true }

    public func setBitrate(_ bitsPerSecond: Int) throws(MediaError) {
        try config.setBitrate(bitsPerSecond)
        guard size != nil else { return }
        settings.rc_target_bitrate = UInt32(max(1, bitsPerSecond / 1000))
        try check(aom_codec_enc_config_set(context, &settings), "set bitrate \(bitsPerSecond)")
    }

    public func setFrameRate(_ framesPerSecond: Double) throws(MediaError) {
        try config.setFrameRate(framesPerSecond)
        timestamps.setFrameRate(framesPerSecond)
    }

    private func control(_ id: UInt32, _ value: Int32) throws(MediaError) {
        try check(rs_aom_control_int(context, Int32(id), value), "control \(id) = \(value)")
    }

    private func check(_ status: aom_codec_err_t, _ what: String) throws(MediaError) {
        guard status != AOM_CODEC_OK else { return }
        let detail = aom_codec_error_detail(context).map { String(cString: $0) } ?? ""
        throw MediaError(.codecFailure, "AV1 \(what): \(String(cString: aom_codec_err_to_string(status))) \(detail)")
    }
}
