import EventLoop
import RTCBase

/// The encoders of one worker, one per distinct track, created on first use.
public final class MediaFanout {
    private let loop: EventLoop
    private var encoders: [SharedEncoder.Track: SharedEncoder] = [:]
    /// Encoders stopped because nobody used them any more, for the run's figures (their
    /// pace counts up to their stop).
    private var retired: [SharedEncoder] = []
    private let epoch: Instant
    /// Which encoder and offset stand behind each SSRC this worker sends.
    let senders = SenderDirectory()

    public init(loop: EventLoop) {
        self.loop = loop
        epoch = loop.now()
    }

    func encoder(for track: SharedEncoder.Track) -> SharedEncoder {
        if let existing = encoders[track] { return existing }
        let encoder = SharedEncoder(track: track, loop: loop, epoch: epoch)
        encoders[track] = encoder
        return encoder
    }

    /// Stops `track`'s encoder when no sender takes its frames any more.
    func release(_ track: SharedEncoder.Track) {
        guard let encoder = encoders[track], encoder.isUnused else { return }
        encoder.stop(at: loop.now())
        encoders[track] = nil
        retired.append(encoder)
    }

    public func stopAll() { encoders.values.forEach { $0.stop(at: loop.now()) } }

    /// Frames the encoders were due to make by `now`, and the ones they fell behind on: the
    /// media the run asked for could not be made in real time (a 4K encode on two cores, say).
    public func pace(at now: Instant) -> (due: Int, behind: Int) {
        (Array(encoders.values) + retired).map { $0.pace(at: now) }.reduce((0, 0)) { ($0.due + $1.due, $0.behind + $1.behind) }
    }
    /// CPU time of every encoder thread: what encoding once costs, whatever the fan-out.
    public var encoderCPUSeconds: Double { (Array(encoders.values) + retired).reduce(0) { $0 + $1.cpuSeconds } }
    public var errors: [String] { (Array(encoders.values) + retired).compactMap(\.error) }
}
