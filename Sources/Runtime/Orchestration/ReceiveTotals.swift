import Report

/// Running totals of what a worker's peers have received so far (ended peers' records plus
/// the live calls), sent with each worker sample so the coordinator can turn their change
/// over a second into that second's first-pass loss, NACKs and frame rate.
public struct ReceiveTotals: Codable, Sendable, Equatable {
    /// RTP packets expected (RFC 3550 A.3) over the received streams.
    public var packetsExpected = 0
    /// Packets lost on the first pass (docs/metrics.md `loss_pct`): never received, or
    /// received only after a NACK asked for them again.
    public var packetsLostFirstPass = 0
    /// NACK feedback messages sent (RFC 4585 6.2.1).
    public var nacks = 0
    /// PLI feedback messages sent (RFC 4585 6.3.1).
    public var plis = 0
    /// Complete video frames received.
    public var videoFrames = 0
    /// Video freezes (docs/metrics.md `freeze_count`).
    public var freezes = 0
    /// Video streams being received by live calls right now (not a running total).
    public var liveVideoStreams = 0
    /// Each live call's received streams' interarrival jitter now (RFC 3550 A.8), in ms,
    /// video and audio apart; not sent as such (the worker's sample carries their
    /// histograms, `LiveJitter`) and not kept from ended peers.
    var liveVideoJitterMs: [Double] = []
    var liveAudioJitterMs: [Double] = []

    private enum CodingKeys: String, CodingKey {
        case packetsExpected, packetsLostFirstPass, nacks, plis, videoFrames, freezes, liveVideoStreams
    }

    public init(packetsExpected: Int = 0, packetsLostFirstPass: Int = 0, nacks: Int = 0, plis: Int = 0, videoFrames: Int = 0, freezes: Int = 0,
                liveVideoStreams: Int = 0) {
        self.packetsExpected = packetsExpected
        self.packetsLostFirstPass = packetsLostFirstPass
        self.nacks = nacks
        self.plis = plis
        self.videoFrames = videoFrames
        self.freezes = freezes
        self.liveVideoStreams = liveVideoStreams
    }

    /// The totals of an ended peer's streams (the same counts its record reports).
    init(_ streams: [StreamRecord]) {
        for stream in streams {
            packetsExpected += stream.packetsExpected
            packetsLostFirstPass += max(0, stream.packetsExpected - stream.packetsReceived) + (stream.packetsRecovered ?? 0)
            nacks += stream.nacks
            plis += stream.plis
            guard stream.kind == "video" else { continue }
            videoFrames += stream.framesReceived
            freezes += stream.freezeCount
        }
    }

    public static func + (a: ReceiveTotals, b: ReceiveTotals) -> ReceiveTotals {
        var sum = ReceiveTotals(packetsExpected: a.packetsExpected + b.packetsExpected,
                                packetsLostFirstPass: a.packetsLostFirstPass + b.packetsLostFirstPass, nacks: a.nacks + b.nacks, plis: a.plis + b.plis,
                                videoFrames: a.videoFrames + b.videoFrames, freezes: a.freezes + b.freezes,
                                liveVideoStreams: a.liveVideoStreams + b.liveVideoStreams)
        (sum.liveVideoJitterMs, sum.liveAudioJitterMs) = (a.liveVideoJitterMs + b.liveVideoJitterMs, a.liveAudioJitterMs + b.liveAudioJitterMs)
        return sum
    }
}

/// Each sample's figures from the change in the run's receive totals since the previous
/// sample: first-pass loss in percent of the packets expected in that stretch, NACKs per
/// second, frames per second per live video stream (with the counts behind them) and the
/// freezes that began in it.
struct ReceiveSeries {
    private var last: (t: Double, totals: ReceiveTotals)

    /// A series whose first stretch starts at `start` seconds from the run's start.
    init(start: Double = 0) { last = (start, ReceiveTotals()) }

    /// Sets `sample`'s receive figures for the stretch since the previous one; nil figures
    /// where it had nothing to measure (no packet expected, no video).
    mutating func fill(_ sample: inout TimeSample, totals: ReceiveTotals) {
        let seconds = sample.tS - last.t
        defer { last = (sample.tS, totals) }
        guard seconds > 0 else { return }
        let expected = max(0, totals.packetsExpected - last.totals.packetsExpected)
        let lost = max(0, totals.packetsLostFirstPass - last.totals.packetsLostFirstPass)
        let frames = max(0, totals.videoFrames - last.totals.videoFrames)
        (sample.packetsExpected, sample.packetsLostFirstPass, sample.liveVideoStreams) = (expected, lost, totals.liveVideoStreams)
        sample.freezes = max(0, totals.freezes - last.totals.freezes)
        sample.lossPct = expected > 0 ? min(100, Double(lost) / Double(expected) * 100) : nil
        sample.nacksPerS = Double(max(0, totals.nacks - last.totals.nacks)) / seconds
        sample.fps = totals.liveVideoStreams > 0 ? Double(frames) / seconds / Double(totals.liveVideoStreams) : nil
    }
}
