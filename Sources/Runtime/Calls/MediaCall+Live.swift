import Report

extension MediaCall {
    /// The call's running totals for the worker's sample (asked once a second), and from
    /// the same totals one more second of the call's own series.
    func sampleLive() -> ReceiveTotals {
        let totals = receiveTotals()
        series.append(at: recorder.offset(loop.now()) / 1000, totals)
        return totals
    }

    /// What the call has received so far, counted as its record will count it.
    func receiveTotals() -> ReceiveTotals {
        guard let peer else { return ReceiveTotals() }
        var totals = ReceiveTotals()
        for received in peer.stats(now: loop.now()).received {
            totals.packetsExpected += Int(received.rtp.packetsExpected)
            totals.packetsLostFirstPass += Int(max(0, received.rtp.packetsLost) + received.rtp.packetsRecovered)
            totals.nacks += received.rtp.nacksSent
            totals.plis += received.rtp.plisSent
            guard received.codec.isVideo else {
                totals.liveAudioJitterMs.append(received.rtp.jitterMs)
                continue
            }
            totals.liveVideoJitterMs.append(received.rtp.jitterMs)
            totals.videoFrames += observers[received.mid]?.frames ?? 0
            totals.freezes += observers[received.mid]?.freezeCount ?? 0
            totals.liveVideoStreams += 1
        }
        return totals
    }
}

/// One call's per-second figures while it runs (its record's `series`): each second's
/// first-pass loss, NACKs, frame rate and freezes computed as the run's time series
/// computes them (`ReceiveSeries`), and its streams' jitter then. The last `limit`
/// seconds are kept.
struct CallSeries {
    static let limit = 600
    private var receive: ReceiveSeries
    private(set) var seconds: [PeerSecond] = []

    /// A series whose first second ends one second after `start` (seconds from the run's start).
    init(start: Double) { receive = ReceiveSeries(start: start) }

    mutating func append(at t: Double, _ totals: ReceiveTotals) {
        var sample = TimeSample(tS: t, connectingPeers: 0, connectedPeers: 0, failedPeers: 0, receiveKbps: 0, sendKbps: 0, lagP99Ms: 0)
        receive.fill(&sample, totals: totals)
        guard sample.nacksPerS != nil else { return }  // no time had passed
        seconds.append(PeerSecond(tS: t, lossPct: sample.lossPct, nacksPerS: sample.nacksPerS, fps: sample.fps, freezes: sample.freezes,
                                  videoJitterMs: totals.liveVideoJitterMs.max(), audioJitterMs: totals.liveAudioJitterMs.max()))
        if seconds.count > Self.limit { seconds.removeFirst(seconds.count - Self.limit) }
    }
}
