import Metrics
import Report

/// The interarrival jitter (RFC 3550 A.8) of every stream being received at one moment,
/// video and audio apart, as histograms: a worker sends its own with each sample and the
/// coordinator merges the workers' into the second's p50 and p95 over all live streams.
public struct LiveJitter: Codable, Sendable, Equatable {
    public var video = Histogram()
    public var audio = Histogram()

    public init() {}

    /// The live streams' jitter in a worker's running totals; nil when it receives none.
    init?(_ totals: ReceiveTotals) {
        guard !totals.liveVideoJitterMs.isEmpty || !totals.liveAudioJitterMs.isEmpty else { return nil }
        (video, audio) = (Histogram(totals.liveVideoJitterMs), Histogram(totals.liveAudioJitterMs))
    }

    /// Sets `sample`'s jitter percentiles from every worker's latest figures (nil where no
    /// stream of that kind was live).
    static func fill(_ sample: inout TimeSample, from workers: [LiveJitter]) {
        var all = LiveJitter()
        for worker in workers {
            all.video.merge(worker.video)
            all.audio.merge(worker.audio)
        }
        (sample.videoJitterP50Ms, sample.videoJitterP95Ms) = (all.video.percentile(50), all.video.percentile(95))
        (sample.audioJitterP50Ms, sample.audioJitterP95Ms) = (all.audio.percentile(50), all.audio.percentile(95))
    }
}
