import RTCBase

/// What SACKs and timeouts do to the sender's chunks: RFC 9260 6.2.1 (processing a SACK),
/// 7.2.1 to 7.2.4 (slow start, congestion avoidance, T3 and fast retransmit) and RFC 3758
/// 3.5 (abandoned chunks and the advanced peer ack point).
extension OutboundQueue {
    struct AckResult: Sendable {
        /// The cumulative ack moved: restart T3-rtx (6.3.2 R3).
        var cumulativeAdvanced = false
        /// An RTT measurement taken from a chunk sent once (6.3.1 C5, Karn).
        var rtt: Duration?
    }

    mutating func acknowledge(_ sack: SackChunk, now: Instant) -> AckResult {
        var result = AckResult()
        guard !sack.cumulativeTSN.tsnPrecedes(cumulativeAck) else { return result }
        let flightBefore = flightSize
        var ackedBytes = 0
        while head < chunks.count, chunks[head].data.tsn.tsnPrecedesOrEquals(sack.cumulativeTSN) {
            let chunk = chunks[head]
            if chunk.state == .inFlight { flightSize -= chunk.data.payload.count }
            if chunk.state == .inFlight || chunk.state == .toRetransmit { ackedBytes += chunk.data.payload.count }
            if let probe = rttProbe, probe.tsn == chunk.data.tsn {
                if chunk.transmissions == 1, chunk.state == .inFlight { result.rtt = now - probe.sentAt }
                rttProbe = nil
            }
            head += 1
            firstTSN &+= 1
            result.cumulativeAdvanced = true
        }
        var highestNewlyAcked: UInt32?
        for gap in sack.gaps {
            var tsn = sack.cumulativeTSN &+ UInt32(gap.start)
            let last = sack.cumulativeTSN &+ UInt32(gap.end)
            while let position = index(of: tsn) {
                let state = chunks[position].state
                if state == .inFlight || state == .toRetransmit {
                    if state == .inFlight { flightSize -= chunks[position].data.payload.count }
                    ackedBytes += chunks[position].data.payload.count
                    chunks[position].state = .acked
                    highestNewlyAcked = tsn
                }
                if tsn == last { break }
                tsn &+= 1
            }
        }
        if let probe = rttProbe, let position = index(of: probe.tsn), chunks[position].state != .inFlight { rttProbe = nil }
        if let highest = highestNewlyAcked { countMissingReports(below: highest, now: now) }
        if let exit = fastRecoveryExit, !cumulativeAck.tsnPrecedes(exit) { fastRecoveryExit = nil }
        if result.cumulativeAdvanced, fastRecoveryExit == nil { grow(by: ackedBytes, flightBefore: flightBefore) }
        peerWindow = max(0, Int(sack.advertisedWindow) - flightSize)
        advanceAckPoint()
        compact()
        return result
    }

    /// 7.2.1 and 7.2.2: grow only while the window was in use.
    private mutating func grow(by acked: Int, flightBefore: Int) {
        guard acked > 0, flightBefore + mtu >= congestionWindow else { return }
        if congestionWindow <= slowStartThreshold {
            congestionWindow += min(acked, mtu)
        } else {
            partialBytesAcked += acked
            if partialBytesAcked >= congestionWindow {
                partialBytesAcked -= congestionWindow
                congestionWindow += mtu
            }
        }
    }

    /// 7.2.4: a chunk below the highest newly acked TSN that is still missing gets one more
    /// report; at three it is fast-retransmitted once, and the window halves once per
    /// recovery.
    private mutating func countMissingReports(below highest: UInt32, now: Instant) {
        var position = head
        var marked: [UInt32] = []
        while position < chunks.count, chunks[position].data.tsn.tsnPrecedes(highest) {
            if chunks[position].state == .inFlight {
                chunks[position].missingReports += 1
                if chunks[position].missingReports >= 3, !chunks[position].fastRetransmitted {
                    chunks[position].fastRetransmitted = true
                    markForRetransmit(at: position, now: now)
                    marked.append(chunks[position].data.tsn)
                }
            }
            position += 1
        }
        guard !marked.isEmpty else { return }
        counters.fastRetransmits += marked.count
        if fastRecoveryExit == nil {
            slowStartThreshold = max(congestionWindow / 2, 4 * mtu)
            congestionWindow = slowStartThreshold
            partialBytesAcked = 0
            fastRecoveryExit = firstTSN &+ UInt32(chunks.count - head) &- 1
        }
        retransmits = (retransmits + marked).sorted { $0.tsnPrecedes($1) }
    }

    /// 6.3.3 (T3-rtx expiry): every chunk in flight is to be sent again, the window closes
    /// to one MTU. RFC 3758 3.5 A3: chunks whose budget ran out are abandoned instead.
    mutating func retransmissionTimerExpired(now: Instant) {
        counters.t3Expiries += 1
        slowStartThreshold = max(congestionWindow / 2, 4 * mtu)
        congestionWindow = mtu
        partialBytesAcked = 0
        fastRecoveryExit = nil
        rttProbe = nil
        var marked: [UInt32] = []
        for position in head..<chunks.count where chunks[position].state == .inFlight {
            markForRetransmit(at: position, now: now)
            if chunks[position].state == .toRetransmit { marked.append(chunks[position].data.tsn) }
        }
        retransmits = (retransmits + marked).sorted { $0.tsnPrecedes($1) }
        advanceAckPoint()
    }

    private mutating func markForRetransmit(at position: Int, now: Instant) {
        flightSize -= chunks[position].data.payload.count
        chunks[position].state = .toRetransmit
        if expired(chunks[position], now: now) { abandon(at: position) }
    }

    /// RFC 3758 3.5 C1 to C3: the ack point moves over abandoned chunks that follow it,
    /// and over gap-acked ones between them (the peer holds those), ending on an abandoned one.
    private mutating func advanceAckPoint() {
        if advancedPeerAckPoint.tsnPrecedes(cumulativeAck) { advancedPeerAckPoint = cumulativeAck }
        var tsn = advancedPeerAckPoint &+ 1
        while let position = index(of: tsn), chunks[position].state == .abandoned || chunks[position].state == .acked {
            if chunks[position].state == .abandoned { advancedPeerAckPoint = tsn }
            tsn &+= 1
        }
    }

    /// The FORWARD TSN to send (RFC 3758 3.5 C4), while the ack point is ahead of the
    /// cumulative ack: the highest abandoned SSN of every ordered stream below it.
    var forwardTSN: ForwardTSNChunk? {
        guard cumulativeAck.tsnPrecedes(advancedPeerAckPoint) else { return nil }
        var highest: [UInt16: UInt16] = [:]
        var position = head
        while position < chunks.count, chunks[position].data.tsn.tsnPrecedesOrEquals(advancedPeerAckPoint) {
            let data = chunks[position].data
            if !data.unordered { highest[data.stream] = data.ssn }
            position += 1
        }
        return ForwardTSNChunk(newCumulativeTSN: advancedPeerAckPoint,
                               streams: highest.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Drops the acked prefix once it is large, so the array does not grow for ever.
    private mutating func compact() {
        guard head >= 256, head * 2 >= chunks.count else { return }
        chunks.removeSubrange(0..<head)
        nextUnsent = max(0, nextUnsent - head)
        head = 0
    }
}
