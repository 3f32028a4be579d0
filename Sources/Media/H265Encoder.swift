import CX265
import RTCBase

/// H.265 through x265: preset `ultrafast`, tune `zerolatency` (no B-frames, no lookahead:
/// one access unit out per frame in), Main profile 8-bit 4:2:0, average-bitrate rate
/// control capped by a one-second VBV, closed GOPs (every keyframe an IDR, NAL type 19 or
/// 20) every `keyframeInterval` frames or on request, VPS, SPS and PPS before each IDR,
/// Annex-B output. x265 picks the level from the size and rate. `threads` 1 gives x265 no
/// thread pool (so no wavefronts): it encodes on one frame-encoder thread of its own, which
/// `encode` waits for.
public final class H265Encoder: VideoEncoder {
    public private(set) var config: VideoEncoderConfig
    private var encoder: OpaquePointer?
    private var parameters: UnsafeMutablePointer<x265_param>?
    private var size: Resolution?
    private var keyframeRequested = false
    private var timestamps: RtpTimestamps

    /// An encoder for `config` (codec `.h265`); x265 starts at the first frame's size.
    public init(config: VideoEncoderConfig) throws(MediaError) {
        try config.check(encoder: "H265Encoder", encodes: [.h265])
        self.config = config
        timestamps = RtpTimestamps(clockRate: 90_000, frameRate: config.frameRate)
    }

    deinit { stop() }

    private func stop() {
        if let encoder { x265_encoder_close(encoder) }
        if let parameters { x265_param_free(parameters) }
        encoder = nil
        parameters = nil
        size = nil
    }

    /// (Re)starts x265 for frames of `resolution`; its first frame is an IDR.
    private func start(_ resolution: Resolution) throws(MediaError) {
        stop()
        guard let param = x265_param_alloc() else { throw MediaError(.codecFailure, "x265_param_alloc failed") }
        parameters = param
        guard x265_param_default_preset(param, "ultrafast", "zerolatency") == 0,
              x265_param_apply_profile(param, "main") == 0,
              x265_param_parse(param, "pools", config.threads > 1 ? "\(config.threads)" : "none") == 0
        else {
            stop()
            throw MediaError(.configuration, "x265 rejected preset ultrafast/zerolatency, profile main or pools")
        }
        param.pointee.logLevel = X265_LOG_NONE  // failures come back as return codes
        param.pointee.sourceWidth = Int32(resolution.width)
        param.pointee.sourceHeight = Int32(resolution.height)
        param.pointee.internalCsp = X265_CSP_I420
        setRate(param)
        param.pointee.frameNumThreads = 1
        param.pointee.bframes = 0
        param.pointee.keyframeMax = Int32(clamping: config.keyframeInterval)
        param.pointee.keyframeMin = 1
        param.pointee.bOpenGOP = 0
        param.pointee.bRepeatHeaders = 1
        param.pointee.bAnnexB = 1
        param.pointee.rc.rateControlMode = Int32(X265_RC_ABR.rawValue)
        guard let opened = rs_x265_encoder_open(param) else {
            stop()
            throw MediaError(.configuration, "x265_encoder_open \(resolution) failed")
        }
        encoder = opened
        size = resolution
        keyframeRequested = false
    }

    /// Bitrate (kbit/s), VBV and frame rate from `config` into `param`.
    private func setRate(_ param: UnsafeMutablePointer<x265_param>) {
        let kbps = Int32(clamping: max(1, config.bitrate / 1000))
        param.pointee.rc.bitrate = kbps
        param.pointee.rc.vbvMaxBitrate = kbps
        param.pointee.rc.vbvBufferSize = kbps
        let millis = UInt32(clamping: Int((config.frameRate * 1000).rounded()))
        param.pointee.fpsNum = millis
        param.pointee.fpsDenom = 1000
    }

    public func encode(_ frame: VideoFrame) throws(MediaError) -> EncodedFrame? {
        try frame.requireEvenSize()
        if size != frame.resolution { try start(frame.resolution) }
        guard let encoder, let parameters, let picture = x265_picture_alloc() else {
            throw MediaError(.codecFailure, "encoder not started")
        }
        defer { x265_picture_free(picture) }
        x265_picture_init(parameters, picture)
        let ticks = timestamps.ticks(index: frame.index)
        picture.pointee.pts = Int64(frame.index)
        if keyframeRequested {
            picture.pointee.sliceType = Int32(X265_TYPE_IDR)
            keyframeRequested = false
        }
        var nals: UnsafeMutablePointer<x265_nal>?
        var nalCount: UInt32 = 0
        let status = frame.image.data.withUnsafeBufferPointer { buffer -> Int32 in
            let base = UnsafeMutableRawPointer(mutating: buffer.baseAddress)
            picture.pointee.planes = (base, base.map { $0 + frame.image.offset(.u) }, base.map { $0 + frame.image.offset(.v) })
            picture.pointee.stride = (Int32(frame.width), Int32(frame.image.chromaWidth), Int32(frame.image.chromaWidth))
            return x265_encoder_encode(encoder, &nals, &nalCount, picture, nil)
        }
        guard status >= 0 else { throw MediaError(.codecFailure, "x265_encoder_encode failed (\(status))") }
        guard status > 0, let nals, nalCount > 0 else { return nil }
        var bytes: [UInt8] = []
        var keyframe = false
        for nal in UnsafeBufferPointer(start: nals, count: Int(nalCount)) {
            keyframe = keyframe || nal.type == NAL_UNIT_CODED_SLICE_IDR_W_RADL.rawValue || nal.type == NAL_UNIT_CODED_SLICE_IDR_N_LP.rawValue
            bytes.append(contentsOf: UnsafeBufferPointer(start: nal.payload, count: Int(nal.sizeBytes)))
        }
        return EncodedFrame(codec: .h265, bytes: bytes, isKeyframe: keyframe, width: frame.width, height: frame.height,
                            index: frame.index, captureTime: frame.captureTime, rtpTimestamp: UInt32(truncatingIfNeeded: ticks))
    }

    public func requestKeyframe() { keyframeRequested = true }

    public func setBitrate(_ bitsPerSecond: Int) throws(MediaError) {
        try config.setBitrate(bitsPerSecond)
        try reconfigure()
    }

    public func setFrameRate(_ framesPerSecond: Double) throws(MediaError) {
        try config.setFrameRate(framesPerSecond)
        timestamps.setFrameRate(framesPerSecond)
        try reconfigure()
    }

    /// Hands the new rate to a running x265 (`x265_encoder_reconfig`).
    private func reconfigure() throws(MediaError) {
        guard let encoder, let parameters else { return }
        setRate(parameters)
        guard x265_encoder_reconfig(encoder, parameters) >= 0 else {
            throw MediaError(.configuration, "x265 rejected bitrate \(config.bitrate) at \(config.frameRate) fps")
        }
    }
}
