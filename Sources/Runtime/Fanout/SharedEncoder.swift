import RTP
import EventLoop
import Foundation
import Media
import PeerCore
import RTCBase
import Synchronization

/// One encoded track that any number of peers send: an encoder thread generates and
/// encodes frames at the track's rate and hands each `EncodedMediaFrame` to the loop,
/// which cuts it into RTP payloads once and gives those to every subscriber (encode
/// once, packetize once, send many). A keyframe request from
/// any receiver asks this one encoder; keyframes it forces are at least `keyframeSpacing`
/// apart, and a request inside that spacing waits for its end instead of being dropped
/// (a second subscriber joining just after the first still gets its start). The loop
/// never waits for the encoder.
public final class SharedEncoder: @unchecked Sendable {
    public enum Track: Hashable, Sendable {
        /// Generated frames encoded with `codec`, or with `file` a user's content: a .y4m
        /// encoded like the pattern, or an .ivf / Annex-B .h264 file sent as it is, looped.
        case video(codec: Codec, size: Resolution, fps: Int, bitrate: Int, keyframeInterval: Int, file: String?)
        case audio(channels: Int, bitrate: Int)
        /// What a muted track sends (timeline `mode`): black frames at a video track's
        /// settings, Opus silence at an audio track's; one encoder for every muted sender.
        indirect case muted(Track)
    }

    public let track: Track
    private let loop: EventLoop
    /// The fan-out's media clock origin: every encoder's RTP timestamps count from it, so a
    /// sender that switches encoders mid-stream (a timeline action) keeps them running on.
    private let epoch: Instant
    private let keyframeWanted = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let failure = Mutex<String?>(nil)
    private var subscribers: [ObjectIdentifier: (PacketizedFrame) -> Void] = [:]
    /// Made with the first frame, whose codec it takes (loop thread only).
    private var packetizer: TrackPacketizer?
    /// Capture times of the last frames by media timestamp (loop thread only).
    private var captures: [UInt32: Instant] = [:]
    private var captureOrder = FIFO<UInt32>()
    static let rememberedFrames = 600
    /// Frames encoded, frames made (encoded or not), frames the encoder fell behind on
    /// (generation + encoding took longer than the frame interval) and the pace they keep,
    /// for the run's own health figures.
    private struct Counts {
        var encoded = 0
        var made = 0
        var late = 0
        var cpuSeconds = 0.0
        var start: Instant?
        var interval = Duration.zero
        /// When it was told to stop: frames stop being due then.
        var stoppedAt: Instant?
    }
    private let counts = Mutex(Counts())
    static let keyframeSpacing = Duration.milliseconds(500)

    init(track: Track, loop: EventLoop, epoch: Instant) {
        self.track = track
        self.loop = loop
        self.epoch = epoch
        let thread = Thread { [self] in self.encodeLoop() }
        thread.name = "rtcswarm-encoder"
        thread.start()
    }

    /// Called on the loop for each frame until `unsubscribe`.
    func subscribe(_ owner: AnyObject, _ deliver: @escaping (PacketizedFrame) -> Void) {
        subscribers[ObjectIdentifier(owner)] = deliver
    }

    func unsubscribe(_ owner: AnyObject) { subscribers[ObjectIdentifier(owner)] = nil }

    /// Nobody takes its frames (after a switch away from it).
    var isUnused: Bool { subscribers.isEmpty }

    /// A receiver lost its picture (PLI/FIR) or a new subscriber needs a start.
    func requestKeyframe() {
        keyframeWanted.store(true, ordering: .relaxed)
    }

    /// Stops the encoder thread; frames are no longer due from `now` on.
    func stop(at now: Instant) {
        counts.withLock { $0.stoppedAt = $0.stoppedAt ?? now }
        stopped.store(true, ordering: .relaxed)
    }

    var encodedFrames: Int { counts.withLock { $0.encoded } }

    /// Frames due by `now` at the track's rate, and how many of them the encoder is behind
    /// on: those it made late, or more while frames are still unmade long after their time
    /// (a 4K frame on two cores can take seconds, and is counted late only once made).
    func pace(at time: Instant) -> (due: Int, behind: Int) {
        counts.withLock { counts in
            let now = min(time, counts.stoppedAt ?? time)
            guard let start = counts.start, counts.interval > .zero, now >= start else { return (0, 0) }
            let due = Int((now - start) / counts.interval) + 1
            return (due, max(counts.late, due - counts.made - 1))
        }
    }
    /// CPU time the encoder thread has spent (making, encoding and posting frames).
    var cpuSeconds: Double { counts.withLock { $0.cpuSeconds } }
    var error: String? { failure.withLock { $0 } }

    // MARK: The encoder thread

    private func encodeLoop() {
        do {
            switch track {
            case .video(let codec, _, let fps, let bitrate, let keyframeInterval, let file?):
                try sendFile(file, codec: codec, fps: fps, bitrate: bitrate, keyframeInterval: keyframeInterval)
            case .video(let codec, let size, let fps, let bitrate, let keyframeInterval, nil):
                try encodeVideo(codec: codec, size: size, fps: fps, bitrate: bitrate, keyframeInterval: keyframeInterval)
            case .audio(let channels, let bitrate):
                try encodeAudio(channels: channels, bitrate: bitrate)
            case .muted(.video(let codec, let size, let fps, let bitrate, let keyframeInterval, _)):
                try encodeVideo(codec: codec, size: size, fps: fps, bitrate: bitrate, keyframeInterval: keyframeInterval, black: true)
            case .muted(.audio(let channels, let bitrate)):
                try encodeAudio(channels: channels, bitrate: bitrate, silent: true)
            case .muted(.muted):
                return  // never made: MediaSending mutes only the track it sends
            }
        } catch {
            failure.withLock { $0 = "\(error)" }
        }
    }

    /// The test pattern (or with `black`, a black picture) encoded at the track's settings.
    private func encodeVideo(codec: Codec, size: Resolution, fps: Int, bitrate: Int, keyframeInterval: Int, black: Bool = false) throws {
        let encoder = try VideoEncoderConfig(codec: codec, bitrate: bitrate, frameRate: Double(fps), keyframeInterval: keyframeInterval).makeEncoder()
        var source = VideoSource()
        var lastForced: Instant?
        try paced(interval: .nanoseconds(1_000_000_000 / Int64(max(1, fps)))) { index, captureTime in
            if keyframeDue(now: captureTime, lastForced: &lastForced) { encoder.requestKeyframe() }
            let frame = black ? VideoFrame(image: I420Image(width: size.width, height: size.height), index: index, captureTime: captureTime)
                              : source.frame(index: index, width: size.width, height: size.height, captureTime: captureTime)
            guard let encoded = try encoder.encode(frame) else { return nil }
            return EncodedMediaFrame(codec: codec, bytes: encoded.bytes, isKeyframe: encoded.isKeyframe,
                                     rtpTimestamp: encoded.rtpTimestamp, captureTime: captureTime,
                                     width: encoded.width, height: encoded.height)
        }
    }

    /// A user's file as the source: .y4m frames go through the encoder like the pattern
    /// (looped); .ivf and .h264 frames are sent as they are, looped, their RTP timestamps
    /// continuing across the loop. Keyframe requests reach only the .y4m encoder.
    private func sendFile(_ path: String, codec: Codec, fps: Int, bitrate: Int, keyframeInterval: Int) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let interval = Duration.nanoseconds(1_000_000_000 / Int64(max(1, fps)))
        let ticks = UInt32(90_000 / max(1, fps))
        if path.hasSuffix(".y4m") {
            let reader = try Y4mReader(bytes: bytes)
            let encoder = try VideoEncoderConfig(codec: codec, bitrate: bitrate, frameRate: Double(fps), keyframeInterval: keyframeInterval).makeEncoder()
            var lastForced: Instant?
            try paced(interval: interval) { index, captureTime in
                if keyframeDue(now: captureTime, lastForced: &lastForced) { encoder.requestKeyframe() }
                let frame = VideoFrame(image: reader.image(at: index % reader.frameCount), index: index, captureTime: captureTime)
                guard let encoded = try encoder.encode(frame) else { return nil }
                return EncodedMediaFrame(codec: codec, bytes: encoded.bytes, isKeyframe: encoded.isKeyframe,
                                         rtpTimestamp: encoded.rtpTimestamp, captureTime: captureTime,
                                         width: encoded.width, height: encoded.height)
            }
            return
        }
        var frames = AnnexB.accessUnits(in: bytes)
        if path.hasSuffix(".ivf") {
            let reader = try IvfReader(bytes: bytes)
            frames = (0..<reader.frameCount).map(reader.frame(at:))
        }
        guard !frames.isEmpty else { throw MediaError(.invalidInput, "\(path) holds no frames") }
        let keyframes = frames.indices.map { (try? BitstreamInspector.inspect(frames[$0], codec: codec))?.isKeyframe ?? ($0 == 0) }
        try paced(interval: interval) { index, captureTime in
            let position = index % frames.count
            return EncodedMediaFrame(codec: codec, bytes: frames[position], isKeyframe: keyframes[position],
                                     rtpTimestamp: UInt32(truncatingIfNeeded: index) &* ticks,
                                     captureTime: captureTime)
        }
    }

    /// The tone (or with `silent`, zero samples: Opus keeps sending frames, DTX off),
    /// encoded for its first periods and then replayed (`LoopedToneEncoder`).
    private func encodeAudio(channels: Int, bitrate: Int, silent: Bool = false) throws {
        let encoder = try LoopedToneEncoder(channels: channels, bitrate: bitrate, silent: silent)
        try paced(interval: .milliseconds(20)) { index, captureTime in
            let encoded = try encoder.packet(index: index, captureTime: captureTime)
            return EncodedMediaFrame(codec: .opus, bytes: encoded.bytes, isKeyframe: false,
                                     rtpTimestamp: encoded.rtpTimestamp, captureTime: captureTime)
        }
    }

    /// Makes one frame per interval on this thread and posts it to the loop; a frame that
    /// is already late is made at once and counted, never skipped silently.
    /// Whether to force a keyframe into the frame captured at `now`: one was asked for and
    /// the last forced one is `keyframeSpacing` old or more. Until then the request waits.
    private func keyframeDue(now: Instant, lastForced: inout Instant?) -> Bool {
        if let lastForced, now - lastForced < Self.keyframeSpacing { return false }
        guard keyframeWanted.exchange(false, ordering: .relaxed) else { return false }
        lastForced = now
        return true
    }

    private func paced(interval: Duration, _ make: (Int, Instant) throws -> EncodedMediaFrame?) throws {
        let start = MonotonicClock.now()
        counts.withLock { ($0.start, $0.interval) = (start, interval) }
        var index = 0
        while !stopped.load(ordering: .relaxed) {
            let due = start + interval * index
            let wait = due - MonotonicClock.now()
            if wait > .zero {
                Thread.sleep(forTimeInterval: Double(wait.nanoseconds) / 1e9)
            } else if wait < .zero - interval {
                counts.withLock { $0.late += 1 }
            }
            let made = try make(index, due)
            counts.withLock { $0.made += 1 }
            if let frame = made {
                counts.withLock { $0.encoded += 1 }
                loop.execute { [weak self] in self?.deliver(frame) }
            }
            let cpu = ProcessCPU.threadSeconds()
            counts.withLock { $0.cpuSeconds = cpu }
            index += 1
        }
    }

    private func deliver(_ encoded: EncodedMediaFrame) {
        var frame = encoded
        let ticks = max(0, (frame.captureTime - epoch).nanoseconds) * Int64(frame.codec.clockRate) / 1_000_000_000
        frame.rtpTimestamp = UInt32(truncatingIfNeeded: ticks)
        captures[frame.rtpTimestamp] = frame.captureTime
        captureOrder.append(frame.rtpTimestamp)
        if captureOrder.count > Self.rememberedFrames, let oldest = captureOrder.popFirst() { captures[oldest] = nil }
        guard !subscribers.isEmpty else { return }
        let packetizer = self.packetizer ?? TrackPacketizer(codec: frame.codec, pictureId: .random(in: 0...0x7fff))
        self.packetizer = packetizer
        let packetized = packetizer.packetize(frame)
        for deliver in subscribers.values { deliver(packetized) }
    }

    /// When the frame with this media timestamp (before any RTP offset) was captured.
    func captureTime(mediaTimestamp: UInt32) -> Instant? { captures[mediaTimestamp] }
}
