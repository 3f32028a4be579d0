/// Reception figures of one received RTP stream, as METRICS.md defines them.
public struct ReceiveStreamStatistics: Equatable, Sendable {
    public var ssrc: UInt32
    /// Highest extended sequence number - first + 1 (RFC 3550 A.3), over all restarts.
    public var packetsExpected: Int64 = 0
    /// Distinct packets received (duplicates counted once).
    public var packetsReceived: Int64 = 0
    /// Packets that arrived only after being NACKed.
    public var packetsRecovered: Int64 = 0
    public var duplicates: Int64 = 0
    /// Packets before validation or before the first sequence number (not counted).
    public var packetsNotCounted: Int64 = 0
    /// Sequence restarts after a confirmed jump (RFC 3550 A.1).
    public var restarts = 0
    /// Longest run of network-lost packets and the number of such runs.
    public var burstMax = 0
    public var burstEpisodes = 0
    /// Interarrival jitter (RFC 3550 A.8) now, in timestamp units.
    public var jitter: Double = 0
    /// The same in ms, then its mean over the run and its maximum.
    public var jitterMs: Double = 0
    public var jitterMeanMs: Double = 0
    public var jitterMaxMs: Double = 0
    /// NACK feedback messages sent and sequence numbers they asked for.
    public var nacksSent = 0
    public var packetsNacked = 0
    /// Missing packets given up after the last retry.
    public var nackGivenUp = 0
    public var plisSent = 0
    public var firsSent = 0

    public init(ssrc: UInt32) { self.ssrc = ssrc }

    /// Never received after all retransmissions: expected - received.
    public var packetsLost: Int64 { packetsExpected - packetsReceived }

    /// `residual_loss_pct`: loss after NACK retransmissions, in percent.
    public var residualLossPercent: Double {
        packetsExpected > 0 ? Double(packetsLost) * 100 / Double(packetsExpected) : 0
    }

    /// `loss_pct`: network loss before recovery, in percent: packets never received
    /// plus packets that arrived only after being declared missing and NACKed.
    public var lossPercent: Double {
        packetsExpected > 0 ? Double(packetsLost + packetsRecovered) * 100 / Double(packetsExpected) : 0
    }
}
