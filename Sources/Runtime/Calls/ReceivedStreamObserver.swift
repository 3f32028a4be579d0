import RTP
import EventLoop
import Media
import PeerCore
import RTCBase
import Report

/// What one received stream's frames show, beyond the RTP statistics: frames, rate,
/// freezes and resolution survival (METRICS.md, per received RTP stream). The resolution
/// is read from keyframe headers without decoding; a delta frame inherits its keyframe's.
final class ReceivedStreamObserver {
    /// A size the received video is to change to (its sender's `video.resolution` action).
    struct SizeChange: Sendable, Equatable {
        var at: Instant
        var size: Resolution
        /// The action's index in the scenario's timeline.
        var entry: Int
    }

    let codec: Codec
    /// The size resolution survival is judged against: the published one when rtcswarm
    /// knows it, else the first keyframe's (a stream somebody else published).
    private(set) var expectedResolution: Resolution?
    private(set) var frames = 0
    private var firstArrival: Instant?
    /// When the last frame of the stream arrived.
    private(set) var lastArrival: Instant?
    private var firstTimestamp: UInt32?
    private var lastTimestamp: UInt32?
    /// The sent stream's frame rate, and the gap between complete frames that counts as a
    /// freeze: max(3 x frame interval, interval + 150 ms), the interval being the sent
    /// stream's (1 / fps): under loss the received frames thin out, and their own mean
    /// would hide the stalls. Counted as frames arrive, so a long run holds no history.
    let frameRate: Double
    private let freezeLimit: Duration
    /// The fixed part of the freeze limit: a gap of one frame interval plus this is a freeze.
    static let freezeMargin = Duration.milliseconds(150)
    private(set) var freezeCount = 0
    private var freezeTotal = Duration.zero
    /// The receiving loop's late stretches: a freeze whose gap less the time they cover is
    /// within the limit is the harness's (counted in `harnessFreezeCount`, not in the
    /// freezes or their time); a longer one would have been a freeze without them.
    private let stalls: LoopStalls?
    private var harnessFreezeCount = 0
    private var currentResolution: Resolution?
    /// Frames counted at each size. The current size's frames are counted apart until the
    /// size changes: updating the dictionary per frame hashed the size every time (0.5 %
    /// of a player's CPU through SRS).
    var resolutions: [Resolution: Int] {
        guard let currentResolution, framesAtCurrentResolution > 0 else { return earlierResolutions }
        return earlierResolutions.merging([currentResolution: framesAtCurrentResolution], uniquingKeysWith: +)
    }
    private var earlierResolutions: [Resolution: Int] = [:]
    private var framesAtCurrentResolution = 0
    /// Frames of known size that had the size expected when they arrived.
    private var framesAtExpectedSize = 0
    /// The sender's size changes in time order, and when each was first seen.
    private let sizeChanges: [SizeChange]
    private var changeSeen: [Int: Instant] = [:]
    /// The sender's planned mutes of this stream's track.
    private var mutes: MuteObserver
    /// What each change's window saw (frames lost, the longest gap), by change index.
    private var switchWindows: [Int: SwitchWindow] = [:]
    private var latencyTotal = 0.0
    private var latencySamples = 0

    /// Set for the sampled streams that are fully decoded.
    private let decoder: SampledDecoder?
    private let audioDecoder: SampledAudioDecoder?

    init(codec: Codec, publishedResolution: Resolution?, frameRate: Double, decode: Bool = false, stalls: LoopStalls? = nil,
         sizeChanges: [SizeChange] = [], mutes: [MuteObserver.Window] = []) {
        self.codec = codec
        self.mutes = MuteObserver(windows: mutes, isVideo: codec.isVideo)
        self.sizeChanges = sizeChanges.sorted { $0.at < $1.at }
        expectedResolution = publishedResolution
        self.frameRate = frameRate
        self.stalls = stalls
        let interval = Duration.nanoseconds(Int64(1e9 / max(frameRate, 1)))
        freezeLimit = max(interval * 3, interval + Self.freezeMargin)
        decoder = decode && codec.isVideo ? SampledDecoder(codec: codec) : nil
        audioDecoder = decode && codec == .opus ? SampledAudioDecoder() : nil
    }

    /// `captureTime` is the sender's, when it is known (same worker).
    func observe(_ frame: ReceivedFrame, captureTime: Instant?) {
        frames += 1
        mutes.observe(frame)
        let previous = (arrival: lastArrival, timestamp: lastTimestamp)
        if let captureTime {
            latencyTotal += frame.lastArrival.milliseconds(since: captureTime)
            latencySamples += 1
        }
        if let last = lastArrival, frame.lastArrival - last > freezeLimit, !mutes.explains(gapFrom: last, to: frame.lastArrival) {
            let gap = frame.lastArrival - last
            if let stalls, gap - stalls.stalled(from: last, to: frame.lastArrival) <= freezeLimit {
                harnessFreezeCount += 1
            } else {
                freezeCount += 1
                freezeTotal += gap
            }
        }
        firstArrival = firstArrival ?? frame.lastArrival
        lastArrival = frame.lastArrival
        firstTimestamp = firstTimestamp ?? frame.rtpTimestamp
        lastTimestamp = frame.rtpTimestamp
        guard codec.isVideo else { return audioDecoder?.decode(frame) ?? () }
        decoder?.decode(frame)
        if frame.isKeyframe,
           let size = (try? BitstreamInspector.inspect(frame.data, codec: codec))?.resolution {
            if let currentResolution, size != currentResolution, framesAtCurrentResolution > 0 {
                earlierResolutions[currentResolution, default: 0] += framesAtCurrentResolution
                framesAtCurrentResolution = 0
            }
            currentResolution = size
            expectedResolution = expectedResolution ?? currentResolution
        }
        guard let currentResolution else { return }
        framesAtCurrentResolution += 1
        if atExpectedSize(currentResolution, arrival: frame.lastArrival) { framesAtExpectedSize += 1 }
        noteSwitchWindow(frame, previous: previous.arrival, previousTimestamp: previous.timestamp)
    }

    /// Adds `frame` to the window of the latest change when it is still open (until
    /// `SwitchWindow.after` past that change's first new-size frame).
    private func noteSwitchWindow(_ frame: ReceivedFrame, previous: Instant?, previousTimestamp: UInt32?) {
        guard let index = sizeChanges.lastIndex(where: { $0.at <= frame.lastArrival }) else { return }
        if let seen = changeSeen[index], frame.lastArrival - seen > SwitchWindow.after { return }
        switchWindows[index, default: SwitchWindow(from: sizeChanges[index].at)]
            .add(timestamp: frame.rtpTimestamp, arrival: frame.lastArrival, previous: previous, previousTimestamp: previousTimestamp)
    }

    /// Whether a frame of `size` arriving at `arrival` has the size expected then: the
    /// latest change's, or until that size first arrives the one before it (the sender
    /// switches on its next keyframe, and frames in flight keep the old size).
    private func atExpectedSize(_ size: Resolution, arrival: Instant) -> Bool {
        guard let index = sizeChanges.lastIndex(where: { $0.at <= arrival }) else { return size == expectedResolution }
        if size == sizeChanges[index].size {
            if changeSeen[index] == nil { changeSeen[index] = arrival }
            return true
        }
        let previous = index > 0 ? sizeChanges[index - 1].size : expectedResolution
        return changeSeen[index] == nil && size == previous
    }

    /// Each size change, timed from its action to the first frame of the new size.
    var switches: [ResolutionSwitch]? {
        guard !sizeChanges.isEmpty else { return nil }
        let ticksPerFrame = Double(codec.clockRate) / max(frameRate, 1)
        return sizeChanges.enumerated().map { index, change in
            let window = switchWindows[index]
            return ResolutionSwitch(entry: change.entry, to: change.size.description,
                                    switchMs: changeSeen[index].map { $0.milliseconds(since: change.at) },
                                    freezeMs: window?.longestGap.milliseconds ?? 0,
                                    framesLost: window?.framesLost(ticksPerFrame: ticksPerFrame) ?? 0)
        }
    }

    /// The stream's record, with the RTP figures PeerCore measured.
    /// `framesStalled`: incomplete frames the assembler still holds past its wait.
    func record(_ rtp: ReceivedStreamStats, framesStalled: Int = 0) -> StreamRecord {
        let statistics = rtp.rtp
        var seconds = 0.0
        if let firstArrival, let lastArrival { seconds = (lastArrival - firstArrival).milliseconds / 1000 }
        let freezes = frames > 2 ? (count: freezeCount, ms: freezeTotal.milliseconds, harness: harnessFreezeCount)
                                 : (count: 0, ms: 0, harness: 0)
        // At least every frame seen plus every frame the assembler gave up or still holds
        // past its wait: those after the last complete frame lie outside the timestamps'
        // span (a stream in which no frame completes any more).
        let expected = max(expectedFrames(), frames + rtp.framesDropped + framesStalled)
        let lost = max(0, expected - frames)
        let decoded = decoder?.results()
        var record = StreamRecord(
            kind: codec.isVideo ? "video" : "audio", codec: codec.rawValue,
            packetsReceived: Int(statistics.packetsReceived), packetsExpected: Int(statistics.packetsExpected),
            lossPct: statistics.lossPercent, residualLossPct: statistics.residualLossPercent, burstMax: statistics.burstMax,
            jitterMs: statistics.jitterMeanMs, framesReceived: frames,
            frameLossPct: expected > 0 ? Double(lost) / Double(expected) * 100 : 0,
            fps: seconds > 0 ? Double(frames - 1) / seconds : 0, freezeCount: freezes.count,
            freezeMs: freezes.ms, harnessFreezeCount: freezes.harness,
            resolutionSurvival: resolutionSurvival,
            resolutions: Dictionary(uniqueKeysWithValues: resolutions.map { ($0.key.description, $0.value) }), latencyMs: latencySamples > 0 ? latencyTotal / Double(latencySamples) : nil,
            psnrDb: decoded?.psnrMean, framesDecoded: decoded?.decoded, frameCodesRead: decoded?.codesRead,
            nacks: statistics.nacksSent, jitterMaxMs: statistics.jitterMaxMs, lossEpisodes: statistics.burstEpisodes, packetsNacked: statistics.packetsNacked, packetsRecovered: Int(statistics.packetsRecovered), plis: statistics.plisSent + statistics.firsSent, ssrc: statistics.ssrc,
            framesDroppedLate: rtp.framesDroppedLate, framesIncomplete: max(0, lost - rtp.framesDroppedLate))
        record.switches = switches
        record.mutes = mutes.records
        record.ssim = decoded.flatMap { SSIMFigures(frames: $0.ssimValues) }
        if let played = audioDecoder?.results {
            (record.framesDecoded, record.concealedFrames, record.markerHitPct) = (played.decoded, played.concealed, played.markerHitPct)
        }
        return record
    }

    /// The share of frames of known size that had the expected size (METRICS.md); nil for
    /// audio and before any keyframe.
    var resolutionSurvival: Double? {
        let known = resolutions.values.reduce(0, +)
        guard codec.isVideo, known > 0 else { return nil }
        return Double(framesAtExpectedSize) / Double(known) * 100
    }

    /// "video arrived only at 320x240, never at the expected 320x180" when no frame had the
    /// expected size: such a stream must not pass.
    var neverAtExpectedSize: String? {
        guard resolutionSurvival == 0 else { return nil }
        let seen = resolutions.keys.map(\.description).sorted().joined(separator: ", ")
        return "video arrived only at \(seen), never at the expected \(expectedResolution.map(\.description) ?? "?")"
    }

    /// Frames the timestamps say were sent between the first and the last received, less
    /// those a "stop" mute planned unsent.
    private func expectedFrames() -> Int {
        guard let first = firstTimestamp, let last = lastTimestamp, frameRate > 0 else { return frames }
        let ticksPerFrame = Double(codec.clockRate) / frameRate
        let unsent = firstArrival.flatMap { from in lastArrival.map { mutes.stopped(from: from, to: $0).milliseconds / 1000 * frameRate } } ?? 0
        return Int((Double(last &- first) / ticksPerFrame - unsent).rounded()) + 1
    }
}
