extension TimeSample {
    /// This second's sample of one shard with the same second of another: peers, bitrates
    /// and NACK rates added; first-pass loss recomputed from both shards' packet counts and
    /// the frame rate per stream from both shards' streams, so they are the whole run's
    /// figures (where a shard's report predates the counts, the figure it has is kept);
    /// lag, CPU, jitter and relay percentiles are the larger shard's, an upper bound (the
    /// percentile of the union cannot be read back from two percentiles); freezes and
    /// relayed messages added.
    func adding(_ other: TimeSample) -> TimeSample {
        var sum = self
        sum.connectingPeers += other.connectingPeers
        sum.connectedPeers += other.connectedPeers
        sum.failedPeers += other.failedPeers
        sum.receiveKbps += other.receiveKbps
        sum.sendKbps += other.sendKbps
        sum.lagP99Ms = max(lagP99Ms, other.lagP99Ms)
        sum.cpuPct = Self.larger(cpuPct, other.cpuPct)
        sum.nacksPerS = Self.added(nacksPerS, other.nacksPerS)
        if let expected = packetsExpected, let lost = packetsLostFirstPass, let otherExpected = other.packetsExpected,
           let otherLost = other.packetsLostFirstPass {
            (sum.packetsExpected, sum.packetsLostFirstPass) = (expected + otherExpected, lost + otherLost)
            sum.lossPct = expected + otherExpected > 0 ? Double(lost + otherLost) / Double(expected + otherExpected) * 100 : nil
        } else {
            sum.lossPct = lossPct ?? other.lossPct
        }
        if let streams = liveVideoStreams, let otherStreams = other.liveVideoStreams {
            sum.liveVideoStreams = streams + otherStreams
            let frames = (fps ?? 0) * Double(streams) + (other.fps ?? 0) * Double(otherStreams)
            sum.fps = streams + otherStreams > 0 ? frames / Double(streams + otherStreams) : nil
        } else {
            sum.fps = fps ?? other.fps
        }
        sum.freezes = Self.added(freezes.map(Double.init), other.freezes.map(Double.init)).map { Int($0) }
        sum.videoJitterP50Ms = Self.larger(videoJitterP50Ms, other.videoJitterP50Ms)
        sum.videoJitterP95Ms = Self.larger(videoJitterP95Ms, other.videoJitterP95Ms)
        sum.audioJitterP50Ms = Self.larger(audioJitterP50Ms, other.audioJitterP50Ms)
        sum.audioJitterP95Ms = Self.larger(audioJitterP95Ms, other.audioJitterP95Ms)
        sum.relayMessages = Self.added(relayMessages.map(Double.init), other.relayMessages.map(Double.init)).map { Int($0) }
        sum.relayP50Ms = Self.larger(relayP50Ms, other.relayP50Ms)
        sum.relayP95Ms = Self.larger(relayP95Ms, other.relayP95Ms)
        return sum
    }

    private static func larger(_ a: Double?, _ b: Double?) -> Double? { [a, b].compactMap { $0 }.max() }
    private static func added(_ a: Double?, _ b: Double?) -> Double? { a == nil && b == nil ? nil : (a ?? 0) + (b ?? 0) }
}
