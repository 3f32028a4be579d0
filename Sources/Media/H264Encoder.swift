import COpenH264
import RTCBase

/// H.264 through OpenH264: constrained baseline (the SPS says `42c0xx`, which SDP's
/// `42e0xx` also names), CAVLC, one slice per picture
/// (fits RTP packetization-mode 1, RFC 6184 5.8 FU-A), rate control by bitrate with frame
/// skipping off, an IDR every `keyframeInterval` frames or on request, SPS and PPS before
/// each IDR. The level follows the size: 3.1 (`..1f`) up to 1280x720, 4.0 (`..28`) up
/// to 1920x1088, 5.1 (`..33`) above. Every access unit carries the frame index and
/// capture time in an `H264FrameSei` before its first slice.
public final class H264Encoder: VideoEncoder {
    public private(set) var config: VideoEncoderConfig
    private var encoder: UnsafeMutablePointer<ISVCEncoder?>?
    private var size: Resolution?
    private var keyframeRequested = false
    private var timestamps: RtpTimestamps

    /// An encoder for `config` (codec `.h264`); OpenH264 starts at the first frame's size.
    public init(config: VideoEncoderConfig) throws(MediaError) {
        try config.check(encoder: "H264Encoder", encodes: [.h264])
        self.config = config
        timestamps = RtpTimestamps(clockRate: 90_000, frameRate: config.frameRate)
    }

    deinit { stop() }

    private func stop() {
        guard let encoder else { return }
        _ = rs_h264_encoder_uninitialize(encoder)
        WelsDestroySVCEncoder(encoder)
        self.encoder = nil
        size = nil
    }

    /// The level for a picture size (H.264 table A-1, at 30 fps).
    static func level(for resolution: Resolution) -> ELevelIdc {
        switch resolution.pixelCount {
        case ...(1280 * 720): return LEVEL_3_1
        case ...(1920 * 1088): return LEVEL_4_0
        default: return LEVEL_5_1
        }
    }

    /// (Re)starts OpenH264 for frames of `resolution`; its first frame is an IDR.
    private func start(_ resolution: Resolution) throws(MediaError) {
        stop()
        var created: UnsafeMutablePointer<ISVCEncoder?>?
        guard WelsCreateSVCEncoder(&created) == 0, let created else {
            throw MediaError(.codecFailure, "WelsCreateSVCEncoder failed")
        }
        encoder = created
        var traceLevel = Int32(WELS_LOG_QUIET)  // failures come back as status codes
        _ = rs_h264_encoder_set_option(created, ENCODER_OPTION_TRACE_LEVEL, &traceLevel)
        var parameters = SEncParamExt()
        _ = rs_h264_encoder_default_params(created, &parameters)
        parameters.iUsageType = CAMERA_VIDEO_REAL_TIME
        parameters.iPicWidth = Int32(resolution.width)
        parameters.iPicHeight = Int32(resolution.height)
        parameters.iTargetBitrate = Int32(clamping: config.bitrate)
        parameters.iMaxBitrate = Int32(clamping: config.bitrate * 2)
        parameters.iRCMode = RC_BITRATE_MODE
        parameters.fMaxFrameRate = Float(config.frameRate)
        parameters.iTemporalLayerNum = 1
        parameters.iSpatialLayerNum = 1
        parameters.uiIntraPeriod = UInt32(config.keyframeInterval)
        parameters.eSpsPpsIdStrategy = CONSTANT_ID
        parameters.bEnableFrameSkip = false
        parameters.iEntropyCodingModeFlag = 0
        parameters.iMultipleThreadIdc = UInt16(max(1, config.threads))
        parameters.bEnableDenoise = false
        parameters.bEnableSceneChangeDetect = false
        parameters.bEnableBackgroundDetection = true
        parameters.bEnableAdaptiveQuant = true
        parameters.iComplexityMode = LOW_COMPLEXITY
        parameters.sSpatialLayers.0.iVideoWidth = Int32(resolution.width)
        parameters.sSpatialLayers.0.iVideoHeight = Int32(resolution.height)
        parameters.sSpatialLayers.0.fFrameRate = Float(config.frameRate)
        parameters.sSpatialLayers.0.iSpatialBitrate = parameters.iTargetBitrate
        parameters.sSpatialLayers.0.iMaxSpatialBitrate = parameters.iMaxBitrate
        parameters.sSpatialLayers.0.uiProfileIdc = PRO_BASELINE
        parameters.sSpatialLayers.0.uiLevelIdc = Self.level(for: resolution)
        parameters.sSpatialLayers.0.sSliceArgument.uiSliceMode = SM_SINGLE_SLICE
        let status = rs_h264_encoder_initialize(created, &parameters)
        guard status == 0 else {
            stop()
            throw MediaError(.configuration, "OpenH264 InitializeExt \(resolution) failed (\(status))")
        }
        size = resolution
        keyframeRequested = false
    }

    public func encode(_ frame: VideoFrame) throws(MediaError) -> EncodedFrame? {
        try frame.requireEvenSize()
        if size != frame.resolution { try start(frame.resolution) }
        guard let encoder else { throw MediaError(.codecFailure, "encoder not started") }
        if keyframeRequested {
            _ = rs_h264_encoder_force_idr(encoder)
            keyframeRequested = false
        }
        let ticks = timestamps.ticks(index: frame.index)
        var info = SFrameBSInfo()
        let status = frame.image.data.withUnsafeBufferPointer { buffer in
            let base = UnsafeMutablePointer(mutating: buffer.baseAddress)
            var picture = SSourcePicture()
            picture.iColorFormat = Int32(videoFormatI420.rawValue)
            picture.iPicWidth = Int32(frame.width)
            picture.iPicHeight = Int32(frame.height)
            picture.iStride = (Int32(frame.width), Int32(frame.image.chromaWidth), Int32(frame.image.chromaWidth), 0)
            picture.pData = (base, base.map { $0 + frame.image.offset(.u) }, base.map { $0 + frame.image.offset(.v) }, nil)
            picture.uiTimeStamp = ticks / 90
            return rs_h264_encoder_encode(encoder, &picture, &info)
        }
        guard status == 0 else { throw MediaError(.codecFailure, "OpenH264 EncodeFrame failed (\(status))") }
        guard info.eFrameType != videoFrameTypeSkip, info.eFrameType != videoFrameTypeInvalid else { return nil }
        let stream = Self.collect(&info)
        let stamp = FrameStamp(index: frame.index, captureTime: frame.captureTime)
        return EncodedFrame(codec: .h264, bytes: Self.insertSei(H264FrameSei.nalUnit(for: stamp), into: stream),
                            isKeyframe: info.eFrameType == videoFrameTypeIDR, width: frame.width, height: frame.height,
                            index: frame.index, captureTime: frame.captureTime,
                            rtpTimestamp: UInt32(truncatingIfNeeded: ticks))
    }

    /// The bytes of every layer OpenH264 wrote, in order (Annex-B, start codes included).
    private static func collect(_ info: inout SFrameBSInfo) -> [UInt8] {
        var bytes: [UInt8] = []
        let layerCount = Int(info.iLayerNum)
        withUnsafeBytes(of: &info.sLayerInfo) { raw in
            let layers = raw.bindMemory(to: SLayerBSInfo.self)
            for layer in layers.prefix(layerCount) {
                guard let buffer = layer.pBsBuf, let lengths = layer.pNalLengthInByte else { continue }
                let total = (0..<Int(layer.iNalCount)).reduce(0) { $0 + Int(lengths[$1]) }
                bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: total))
            }
        }
        return bytes
    }

    /// Rebuilds the access unit with `sei` just before its first slice NAL unit.
    static func insertSei(_ sei: [UInt8], into stream: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(stream.count + sei.count + 8)
        var inserted = false
        for range in AnnexB.nalUnits(in: stream) {
            let type = stream[range.lowerBound] & 0x1F
            if !inserted, type == 1 || type == 5 {
                output.append(contentsOf: [0, 0, 0, 1])
                output.append(contentsOf: sei)
                inserted = true
            }
            output.append(contentsOf: [0, 0, 0, 1])
            output.append(contentsOf: stream[range])
        }
        return output
    }

    public func requestKeyframe() { keyframeRequested = true }

    public func setBitrate(_ bitsPerSecond: Int) throws(MediaError) {
        try config.setBitrate(bitsPerSecond)
        guard let encoder else { return }
        var maximum = SBitrateInfo(iLayer: SPATIAL_LAYER_ALL, iBitrate: Int32(clamping: bitsPerSecond * 2))
        var target = SBitrateInfo(iLayer: SPATIAL_LAYER_ALL, iBitrate: Int32(clamping: bitsPerSecond))
        guard rs_h264_encoder_set_option(encoder, ENCODER_OPTION_MAX_BITRATE, &maximum) == 0,
              rs_h264_encoder_set_option(encoder, ENCODER_OPTION_BITRATE, &target) == 0
        else { throw MediaError(.configuration, "OpenH264 rejected bitrate \(bitsPerSecond)") }
    }

    public func setFrameRate(_ framesPerSecond: Double) throws(MediaError) {
        try config.setFrameRate(framesPerSecond)
        timestamps.setFrameRate(framesPerSecond)
        guard let encoder else { return }
        var rate = Float(framesPerSecond)
        guard rs_h264_encoder_set_option(encoder, ENCODER_OPTION_FRAME_RATE, &rate) == 0 else {
            throw MediaError(.configuration, "OpenH264 rejected frame rate \(framesPerSecond)")
        }
    }
}
