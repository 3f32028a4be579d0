import RTCBase
import RTP

/// The send side of one RTP stream: sequence numbers and timestamps from random
/// initial values (RFC 3550 5.1), packet and octet counts for sender reports (6.4.1),
/// and a retransmission cache answering NACKs with plain resends (same SSRC and
/// sequence number) or RTX packets (RFC 4588 4) when an RTX SSRC/payload type is set.
///
/// RTX that recovers nothing is detected: a receiver that drops RTX packets (Pion 3.1
/// accepts RTX in its answer, then discards it) NACKs again the very packets already
/// resent as RTX, again and again until they leave its window. Once
/// `RtxJudgement.minimumResent` distinct packets went as RTX and at least
/// `RtxJudgement.ineffectiveShare` of them were NACKed again after their resend had time
/// to arrive (`suppression`), `counters.rtxIneffective` is set; with `rtxFallback` (the
/// scenario's `rtx: auto`) later resends are plain. A receiver that takes RTX NACKs again
/// only the resends the network lost, about the loss rate.
public struct SendStream: Sendable {
    /// When RTX counts as ineffective (see the type's description).
    public enum RtxJudgement {
        public static let minimumResent = 10
        public static let ineffectiveShare = 0.5
    }

    /// How lost packets were resent in the end.
    public enum Recovery: String, Sendable {
        /// On the RTX stream (RFC 4588).
        case rtx
        /// The original packet again, same SSRC and sequence number.
        case plain
    }

    /// The RTX stream resends go on (RFC 4588: `a=ssrc-group:FID`, `apt=`).
    public struct Rtx: Equatable, Sendable {
        public var ssrc: UInt32
        public var payloadType: UInt8
        public init(ssrc: UInt32, payloadType: UInt8) {
            self.ssrc = ssrc
            self.payloadType = payloadType
        }
    }

    /// What the local SDP says about the stream.
    public struct Configuration: Equatable, Sendable {
        public var ssrc: UInt32
        public var payloadType: UInt8
        public var clockRate: Int
        /// Resend on an RTX stream; nil: resend the original packet.
        public var rtx: Rtx?
        /// Packets kept for resends (0: NACKs are not answered).
        public var cacheCapacity: Int
        /// Resend plainly once RTX proves ineffective (`rtx: auto`); false keeps RTX (`on`).
        public var rtxFallback: Bool

        public init(ssrc: UInt32, payloadType: UInt8, clockRate: Int, rtx: Rtx? = nil, cacheCapacity: Int = 1024,
                    rtxFallback: Bool = true) {
            self.ssrc = ssrc
            self.payloadType = payloadType
            self.clockRate = clockRate
            self.rtx = rtx
            self.cacheCapacity = cacheCapacity
            self.rtxFallback = rtxFallback
        }
    }

    /// What the stream has sent.
    public struct Counters: Equatable, Sendable {
        public var packets: UInt32 = 0
        /// Payload octets (RFC 3550 6.4.1 sender's octet count).
        public var octets: UInt32 = 0
        public var retransmissions = 0
        /// Retransmissions sent on the RTX stream (the rest were plain).
        public var rtxRetransmissions = 0
        /// Distinct packets resent as RTX.
        public var rtxResentPackets = 0
        /// Of those, the ones the receiver NACKed again after the resend had time to arrive.
        public var rtxRenacked = 0
        /// The receiver keeps NACKing what was resent as RTX: RTX recovers nothing.
        public var rtxIneffective = false
        /// How the latest retransmission went: RTX until it proves ineffective (and
        /// still RTX without `rtxFallback`), otherwise plain; nil before any.
        public var recovery: Recovery?
        /// NACKed packets no longer in the cache.
        public var retransmissionMisses = 0
        public var nacksReceived = 0
        public var keyframeRequestsReceived = 0
    }

    public let configuration: Configuration
    public private(set) var counters = Counters()
    private var header: RtpHeader
    private var rtxSequenceNumber: UInt16
    /// The random offset added to every media timestamp (RFC 3550 5.1); a receiver in the
    /// same process subtracts it to find a frame's capture time (end-to-end latency).
    public let timestampOffset: UInt32
    private var cache: RetransmissionCache?
    /// The RTP timestamp of the last packet and when it went, to extrapolate SR times.
    private var lastSent: (timestamp: UInt32, at: Instant)?
    /// Grows on first use and keeps its capacity: idle streams hold no buffer.
    private var writer = ByteWriter()
    private var lastFirSequence: UInt8?

    /// A stream whose initial sequence number, RTX sequence number and timestamp offset
    /// are drawn from `generator` (RFC 3550 5.1: random initial values).
    public init<Generator: RandomNumberGenerator>(configuration: Configuration, using generator: inout Generator) {
        self.configuration = configuration
        header = RtpHeader(
            payloadType: configuration.payloadType, sequenceNumber: UInt16.random(in: 0...UInt16.max, using: &generator),
            timestamp: 0, ssrc: configuration.ssrc)
        rtxSequenceNumber = UInt16.random(in: 0...UInt16.max, using: &generator)
        timestampOffset = UInt32.random(in: 0...UInt32.max, using: &generator)
        cache = configuration.cacheCapacity > 0 ? RetransmissionCache(capacity: configuration.cacheCapacity) : nil
    }

    /// The sequence number the next packet will carry.
    public var nextSequenceNumber: UInt16 { header.sequenceNumber }

    /// One RTP packet for `payload`; `mediaTimestamp` counts in the clock rate from the
    /// stream's start (the random offset is added here).
    public mutating func makePacket(_ payload: RtpPayload, mediaTimestamp: UInt32, now: Instant) -> [UInt8] {
        header.marker = payload.marker
        header.timestamp = timestampOffset &+ mediaTimestamp
        writer.reset()
        header.write(payload: payload.bytes, to: &writer)
        cache?.store(
            .init(sequenceNumber: header.sequenceNumber, timestamp: header.timestamp, marker: payload.marker, payload: payload.bytes))
        header.sequenceNumber &+= 1
        counters.packets &+= 1
        counters.octets &+= UInt32(truncatingIfNeeded: payload.bytes.count)
        lastSent = (header.timestamp, now)
        return writer.bytes
    }

    /// Resends for the NACKed `sequenceNumbers`; a packet resent less than
    /// `suppression` ago is not sent again (its resend is still in flight).
    public mutating func answerNack(_ sequenceNumbers: [UInt16], now: Instant, suppression: Duration) -> [[UInt8]] {
        counters.nacksReceived += 1
        var packets: [[UInt8]] = []
        for sequence in sequenceNumbers {
            guard let entry = cache?.entry(sequence) else {
                counters.retransmissionMisses += 1
                continue
            }
            if let last = entry.lastResent, now - last < suppression { continue }
            if entry.resentAsRtx, !entry.renackedAfterRtx {
                cache?.markRenackedAfterRtx(sequence)
                counters.rtxRenacked += 1
            }
            let rtx = resendsAsRtx ? configuration.rtx : nil
            if rtx != nil, !entry.resentAsRtx { counters.rtxResentPackets += 1 }
            cache?.markResent(sequence, at: now, asRtx: rtx != nil)
            packets.append(resend(entry, rtx: rtx))
            counters.retransmissions += 1
            if rtx != nil { counters.rtxRetransmissions += 1 }
            counters.recovery = rtx != nil ? .rtx : .plain
        }
        if counters.rtxResentPackets >= RtxJudgement.minimumResent,
            Double(counters.rtxRenacked) >= RtxJudgement.ineffectiveShare * Double(counters.rtxResentPackets) {
            counters.rtxIneffective = true
        }
        return packets
    }

    /// Whether the next resend goes on the RTX stream.
    private var resendsAsRtx: Bool {
        configuration.rtx != nil && !(counters.rtxIneffective && configuration.rtxFallback)
    }

    private mutating func resend(_ entry: RetransmissionCache.Entry, rtx: Rtx?) -> [UInt8] {
        writer.reset()
        if let rtx {
            let rtxHeader = RtpHeader(
                marker: entry.marker, payloadType: rtx.payloadType, sequenceNumber: rtxSequenceNumber,
                timestamp: entry.timestamp, ssrc: rtx.ssrc)
            rtxSequenceNumber &+= 1
            // RFC 4588 4: the original sequence number, then the original payload.
            let original = [UInt8(entry.sequenceNumber >> 8), UInt8(truncatingIfNeeded: entry.sequenceNumber)]
            rtxHeader.write(payload: original + entry.payload, to: &writer)
        } else {
            var original = header
            original.marker = entry.marker
            original.sequenceNumber = entry.sequenceNumber
            original.timestamp = entry.timestamp
            original.write(payload: entry.payload, to: &writer)
        }
        return writer.bytes
    }

    /// A PLI, or a FIR whose command sequence number is new (RFC 5104 4.3.1.1: a
    /// repeated number is the same request), asks for a keyframe; returns true if so.
    mutating func keyframeRequested(firSequence: UInt8?) -> Bool {
        if let firSequence {
            guard firSequence != lastFirSequence else { return false }
            lastFirSequence = firSequence
        }
        counters.keyframeRequestsReceived += 1
        return true
    }

    /// The sender report for this stream at `now` (RFC 3550 6.4.1), the RTP timestamp
    /// extrapolated from the last packet sent; nil before anything was sent.
    public func makeSenderReport(now: Instant, ntp: NtpTime, reports: [ReportBlock]) -> SenderReport? {
        guard let lastSent else { return nil }
        // In floating point: nanoseconds x clock rate overflows Int64 after a day.
        let elapsed = Double(max(0, (now - lastSent.at).nanoseconds)) / 1e9
        let advance = UInt32(truncatingIfNeeded: Int64(elapsed * Double(configuration.clockRate)))
        return SenderReport(
            ssrc: configuration.ssrc, ntpTimestamp: ntp.timestamp(at: now), rtpTimestamp: lastSent.timestamp &+ advance,
            packetCount: counters.packets, octetCount: counters.octets, reports: reports)
    }
}
