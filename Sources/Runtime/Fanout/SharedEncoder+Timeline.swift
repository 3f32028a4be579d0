import Scenario

extension SharedEncoder.Track {
    /// The track a timeline action asks for instead of this one (new size, rate or bitrate);
    /// nil for audio, which no action changes, and for an action that is not the encoder's
    /// (a mute: `MediaSending` mutes; an impairment).
    func applying(_ action: TimelineAction) -> SharedEncoder.Track? {
        guard case .video(let codec, var size, var fps, var bitrate, let keyframeInterval, let file) = self else { return nil }
        switch action.action {
        case .videoResolution:
            guard let resolution = action.resolution else { return nil }
            size = resolution
        case .videoFps:
            guard let rate = action.fps else { return nil }
            fps = rate
        case .videoBitrate:
            guard let kbps = action.bitrateKbps else { return nil }
            bitrate = kbps * 1000
        case .videoMute, .videoUnmute, .audioMute, .audioUnmute, .impairment, .leave, .rejoin, .churn, .iceRestart:
            return nil
        }
        return .video(codec: codec, size: size, fps: fps, bitrate: bitrate, keyframeInterval: keyframeInterval, file: file)
    }
}
