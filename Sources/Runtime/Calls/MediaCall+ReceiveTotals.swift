import Report

extension MediaCall {
    /// What the call has received so far, counted as its record will count it.
    func receiveTotals() -> ReceiveTotals {
        guard let peer else { return ReceiveTotals() }
        var totals = ReceiveTotals()
        for received in peer.stats(now: loop.now()).received {
            totals.packetsExpected += Int(received.rtp.packetsExpected)
            totals.packetsLostFirstPass += Int(max(0, received.rtp.packetsLost) + received.rtp.packetsRecovered)
            totals.nacks += received.rtp.nacksSent
            guard received.codec.isVideo else { continue }
            totals.videoFrames += observers[received.mid]?.frames ?? 0
            totals.liveVideoStreams += 1
        }
        return totals
    }
}
