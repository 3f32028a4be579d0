import RTCBase
import RTP

/// The receive side of one RTP stream: sequence validation and extension (RFC 3550
/// A.1), expected/received/lost (A.3), jitter (A.8), loss bursts, NACK generation and
/// reception report blocks (6.4.1).
public struct ReceiveStream: Sendable {
    /// What the remote SDP says about the stream.
    public struct Configuration: Equatable, Sendable {
        public var ssrc: UInt32
        public var clockRate: Int
        /// Whether to NACK missing packets (video with `a=rtcp-fb:* nack`).
        public var nack: Bool
        /// The RTX stream carrying this one's resends (RFC 4588), if negotiated.
        public var rtxSsrc: UInt32?
        /// Packets in sequence needed before the source counts as valid (A.1
        /// MIN_SEQUENTIAL). One by default: SRTP authenticates every packet (RFC 3711
        /// 3.4), so there is no stray traffic to sift out, and with two a packet lost right
        /// after the first restarted the probation, so it was neither NACKed nor counted
        /// lost while its frame was (libwebrtc's statistics also count from the first).
        public var probation: Int

        public init(ssrc: UInt32, clockRate: Int, nack: Bool, rtxSsrc: UInt32? = nil, probation: Int = 1) {
            self.ssrc = ssrc
            self.clockRate = clockRate
            self.nack = nack
            self.rtxSsrc = rtxSsrc
            self.probation = probation
        }
    }

    public let configuration: Configuration
    private var tracker: SequenceTracker
    /// Valid once the source passed probation (RFC 3550 A.1).
    private var validated = false
    private var history = ReceptionHistory(first: 0)
    private var jitter: JitterEstimator
    private(set) var nackGenerator: NackGenerator
    private var base: Int64 = 0
    private var highest: Int64 = 0
    private var received: Int64 = 0
    private var expectedPrior: Int64 = 0
    private var receivedPrior: Int64 = 0
    /// Figures of the sequence before the last restart.
    private var carried: ReceiveStreamStatistics
    private var counters: ReceiveStreamStatistics
    /// When we last asked this stream's sender for a keyframe.
    private(set) var lastKeyframeRequest: Instant?
    /// The longest a NACKed packet was missing before it arrived: how long resends take
    /// to come, through an SFU that itself waits for the publisher's resend.
    public private(set) var longestRecovery: Duration = .zero
    /// Compact NTP time of the last SR from this source and when it arrived.
    private var lastSenderReport: (compact: UInt32, arrival: Instant)?

    /// A stream that is valid once `configuration.probation` packets arrived in sequence.
    public init(configuration: Configuration, nack: NackConfiguration = .init()) {
        self.configuration = configuration
        tracker = SequenceTracker(probation: configuration.probation)
        jitter = JitterEstimator(clockRate: configuration.clockRate)
        nackGenerator = NackGenerator(configuration: nack)
        carried = ReceiveStreamStatistics(ssrc: configuration.ssrc)
        counters = ReceiveStreamStatistics(ssrc: configuration.ssrc)
    }

    /// Moves `earliest` back to this stream's next NACK when that is sooner; mutating only
    /// so that the session reaches the stream where it lies (`pollTimeoutInPlace`).
    mutating func lowerToNextNack(_ earliest: inout Instant) {
        if let due = nackGenerator.nextDue, due < earliest { earliest = due }
    }

    /// Accounts for one packet of this stream. Returns false for a duplicate, which the
    /// caller should drop.
    public mutating func receive(sequenceNumber: UInt16, timestamp: UInt32, now: Instant) -> Bool {
        account(sequenceNumber: sequenceNumber, timestamp: timestamp, now: now).fresh
    }

    /// What one packet did to the stream.
    struct Reception {
        /// False for a duplicate.
        var fresh: Bool
        /// For a NACKed packet that arrived, how long it was missing (and the stream's
        /// NACK-to-resend time moved).
        var recovery: Duration?
    }

    /// `receive` telling its caller of a recovery, so that the session reads nothing more
    /// of the stream per packet.
    mutating func account(sequenceNumber: UInt16, timestamp: UInt32, now: Instant) -> Reception {
        switch tracker.update(sequenceNumber) {
        case .inProbation:
            return Reception(fresh: true)
        case .notValidated:
            counters.packetsNotCounted += 1
            return Reception(fresh: true)
        case .restarted(let first, let last):
            if validated {
                carried = snapshot(now: now)
                counters.restarts += 1
            }
            validated = true
            base = first
            highest = last
            received = last - first + 1
            expectedPrior = 0
            receivedPrior = 0
            history = ReceptionHistory(first: first)
            for sequence in first...last { history.record(sequence, onTime: true) }
            nackGenerator.reset()
            jitter.update(timestamp: timestamp, arrival: now)
            return Reception(fresh: true)
        case .accepted(let sequence):
            return accept(sequence, timestamp: timestamp, now: now)
        }
    }

    private mutating func accept(_ sequence: Int64, timestamp: UInt32, now: Instant) -> Reception {
        guard sequence >= base, !history.isTooOld(sequence) else {
            counters.packetsNotCounted += 1
            return Reception(fresh: true)
        }
        // Slide first: the slot of a new highest number may still hold one a window older.
        history.advance(to: max(highest, sequence))
        if history.hasArrived(sequence) {
            counters.duplicates += 1
            return Reception(fresh: false)
        }
        if sequence > highest + 1, configuration.nack {
            nackGenerator.markMissing(highest + 1..<sequence, now: now)
        }
        let recovery = sequence < highest ? nackGenerator.arrived(sequence, now: now) : nil
        let recovered = recovery != nil
        if let recovery { longestRecovery = max(longestRecovery, recovery) }
        highest = max(highest, sequence)
        history.record(sequence, onTime: !recovered)
        received += 1
        if recovered {
            counters.packetsRecovered += 1
        } else {
            // Resends say nothing about network transit: they wait for a NACK.
            jitter.update(timestamp: timestamp, arrival: now)
        }
        return Reception(fresh: true, recovery: recovery)
    }

    /// Remembers an SR from this source for the LSR/DLSR of the next report block.
    public mutating func receivedSenderReport(_ report: SenderReport, now: Instant) {
        lastSenderReport = (report.compactNtp, now)
    }

    /// The reception report block for this stream (RFC 3550 6.4.1, A.3); advances the
    /// interval used for the fraction lost. Nil before the source is valid.
    public mutating func makeReportBlock(now: Instant) -> ReportBlock? {
        guard validated else { return nil }
        let expected = highest - base + 1
        let expectedInterval = expected - expectedPrior
        let receivedInterval = received - receivedPrior
        expectedPrior = expected
        receivedPrior = received
        let lostInterval = expectedInterval - receivedInterval
        let fraction = expectedInterval == 0 || lostInterval <= 0 ? 0 : (lostInterval << 8) / expectedInterval
        return ReportBlock(
            ssrc: configuration.ssrc, fractionLost: UInt8(clamping: fraction),
            cumulativeLost: Int32(clamping: expected - received),
            extendedHighestSequence: UInt32(truncatingIfNeeded: highest), jitter: UInt32(min(jitter.jitter, Double(UInt32.max))),
            lastSenderReport: lastSenderReport?.compact ?? 0,
            delaySinceLastSenderReport: lastSenderReport.map { NtpTime.compactDuration(now - $0.arrival) } ?? 0)
    }

    /// NACKs due now for this stream (sequence numbers, oldest first), counted as sent.
    mutating func dueNacks(now: Instant, roundTripTime: Duration?) -> [UInt16] {
        let due = nackGenerator.due(now: now, roundTripTime: roundTripTime)
        if !due.isEmpty {
            counters.nacksSent += 1
            counters.packetsNacked += due.count
        }
        return due.map { UInt16(truncatingIfNeeded: $0) }
    }

    /// Missing packets are asked for again at the new round trip's pace.
    mutating func roundTripTimeChanged(now: Instant) { nackGenerator.roundTripTimeChanged(now: now) }

    mutating func countKeyframeRequest(fullIntraRequest: Bool, now: Instant) {
        lastKeyframeRequest = now
        if fullIntraRequest { counters.firsSent += 1 } else { counters.plisSent += 1 }
    }

    /// The figures so far (packets still missing count as lost).
    public func snapshot(now: Instant) -> ReceiveStreamStatistics {
        var result = counters
        result.packetsExpected = carried.packetsExpected
        result.packetsReceived = carried.packetsReceived
        result.burstMax = carried.burstMax
        result.burstEpisodes = carried.burstEpisodes
        if validated {
            result.packetsExpected += highest - base + 1
            result.packetsReceived += received
            let bursts = history.burstsIncludingPending(upTo: highest)
            result.burstMax = max(result.burstMax, bursts.longest)
            result.burstEpisodes += bursts.episodes
        }
        result.jitter = jitter.jitter
        result.jitterMs = jitter.milliseconds(jitter.jitter)
        result.jitterMeanMs = jitter.milliseconds(jitter.mean)
        result.jitterMaxMs = jitter.milliseconds(jitter.maximum)
        result.nackGivenUp = nackGenerator.givenUp
        return result
    }
}
