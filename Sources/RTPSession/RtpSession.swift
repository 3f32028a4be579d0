import RTCBase
import RTP

/// The RTP/RTCP state of one peer connection's media, sans-IO: its send and receive
/// streams, RTCP reports at RFC 3550 intervals, NACKs and their answers, keyframe
/// requests and round-trip time.
///
/// Drive it with `send`, `handleRtp`, `handleRtcp` and `handleTimeout(now:)`; then drain
/// `pollTransmit()` (plaintext RTP and RTCP for SRTP to protect) and `pollEvent()`, and
/// call `handleTimeout` again at `pollTimeout()`.
public struct RtpSession: Sendable {
    /// Settings fixed for the session's life.
    public struct Configuration: Sendable {
        /// The SDES CNAME (RFC 3550 6.5.1) sent with every report.
        public var cname: String
        /// Seeds SSRC-independent randomness: initial sequence numbers, timestamps and
        /// RTCP interval jitter.
        public var seed: UInt64
        /// The SSRC reports and feedback come from when nothing is sent.
        public var feedbackSsrc: UInt32
        public var ntp = NtpTime()
        /// RTCP bandwidth in bytes per second (RFC 3550 6.2).
        public var rtcpBandwidth: Double = 12_500
        /// Tmin of RFC 3550 6.3.1. Under RTP/AVPF (RFC 4585 3.4) the 5 s of plain RTP does
        /// not apply; 1 s is what browsers use beside video, and what a sender like
        /// Chromium expects: it warns and loses its round-trip estimate when no receiver
        /// report arrives within 3 of its 1 s intervals.
        public var rtcpMinimumInterval: Duration = .seconds(1)
        public var nack = NackConfiguration()
        /// Least time between two keyframe requests for one stream.
        public var keyframeRequestInterval: Duration = .milliseconds(250)

        public init(cname: String, seed: UInt64, feedbackSsrc: UInt32) {
            self.cname = cname
            self.seed = seed
            self.feedbackSsrc = feedbackSsrc
        }
    }

    /// A packet to protect and send.
    public enum Packet: Equatable, Sendable {
        case rtp([UInt8])
        case rtcp([UInt8])
    }

    /// What the session tells its owner.
    public enum Event: Equatable, Sendable {
        /// A PLI or new FIR asked for a keyframe on one of our send streams.
        case keyframeRequested(ssrc: UInt32)
        /// A round-trip time measured from an RR echoing one of our SRs (RFC 3550 6.4.1).
        case roundTripTime(Duration)
        /// The remote source left (RFC 3550 6.6).
        case goodbye(ssrc: UInt32, reason: String?)
        /// Feedback this session does not act on itself (transport-wide CC, REMB).
        case feedback(RtcpPacket)
    }

    /// Inputs that were counted and dropped.
    public struct Counters: Equatable, Sendable {
        public var malformedRtcp = 0
        public var unknownSsrcPackets = 0
        public var malformedRtx = 0
        /// Packets with no payload, only padding (RFC 3550 5.1), as senders probe with.
        public var paddingOnlyPackets = 0
        public var reportsSent = 0
    }

    public let configuration: Configuration
    public internal(set) var counters = Counters()
    var sendStreams: [UInt32: SendStream] = [:]
    var receiveStreams: [UInt32: ReceiveStream] = [:]
    /// The longest any received stream's NACKed packet was missing before it arrived
    /// (`ReceiveStream.longestRecovery`).
    public private(set) var longestRecovery: Duration = .zero
    /// RTX SSRC -> media SSRC, and the media stream's payload type to restore.
    var rtxStreams = SsrcTable<UInt32>()
    var lastPayloadTypes = SsrcTable<UInt8>()
    var generator: SeededGenerator
    var interval: RtcpIntervalCalculator
    var nextReport: Instant
    var firSequence: UInt8 = 0
    var outgoing: [Packet] = []
    var events: [Event] = []
    /// The latest round-trip time from RTCP reports.
    public internal(set) var reportRoundTripTime: Duration? { didSet { refreshRoundTripTime() } }
    /// The smallest NACK-to-resend time of the receive streams, kept as they change (on
    /// recoveries) so that the round trip read per packet walks no streams.
    private var nackRoundTripTime: Duration? { didSet { refreshRoundTripTime() } }
    /// The round-trip time: from RTCP reports when there are any, else the smallest
    /// NACK-to-resend time of the receive streams. Stored, as `resendWindow` is, because
    /// both are read for every received packet, and a computed property read through the
    /// peer that owns the session copied the whole session.
    public private(set) var roundTripTime: Duration?
    /// How long a missing packet is NACKed before it is given up, at the current
    /// round-trip time (`NackConfiguration.resendWindow`): how long its frame may wait.
    public private(set) var resendWindow: Duration
    /// Grows on first use and keeps its capacity: idle sessions hold no buffer.
    var writer = ByteWriter()

    /// A session whose first RTCP report is due a randomized half interval after `now`.
    public init(configuration: Configuration, now: Instant) {
        self.configuration = configuration
        resendWindow = configuration.nack.resendWindow(roundTripTime: nil)
        generator = SeededGenerator(seed: configuration.seed)
        interval = RtcpIntervalCalculator(
            bandwidth: configuration.rtcpBandwidth, minimumInterval: configuration.rtcpMinimumInterval,
            seed: configuration.seed ^ 0x5254_4350)
        nextReport = now + interval.nextInterval(members: 2, senders: 1, weSent: false, initial: true)
    }

    /// Adds a stream to send, with initial sequence number and timestamp drawn from the seed.
    public mutating func addSendStream(_ stream: SendStream.Configuration) {
        sendStreams[stream.ssrc] = SendStream(configuration: stream, using: &generator)
    }

    /// Adds a stream to receive (and its RTX stream, if any), known from the remote SDP.
    public mutating func addReceiveStream(_ stream: ReceiveStream.Configuration) {
        receiveStreams[stream.ssrc] = ReceiveStream(configuration: stream, nack: configuration.nack)
        updateNackRoundTripTime()
        if let rtx = stream.rtxSsrc { rtxStreams[rtx] = stream.ssrc }
    }

    /// Called when a stream's NACK-to-resend time may have changed.
    private mutating func updateNackRoundTripTime() {
        nackRoundTripTime = receiveStreams.values.lazy.compactMap(\.nackGenerator.nackResponseTime).min()
    }

    /// Missing packets of every stream are asked for again at the pace of a round trip
    /// that moved, from an RTCP report or a resend.
    mutating func repaceNacks(ifRoundTripChangedFrom before: Duration?, now: Instant) {
        guard roundTripTime != before else { return }
        for ssrc in receiveStreams.keys { receiveStreams[ssrc]?.roundTripTimeChanged(now: now) }
    }

    private mutating func refreshRoundTripTime() {
        roundTripTime = reportRoundTripTime ?? nackRoundTripTime
        resendWindow = configuration.nack.resendWindow(roundTripTime: roundTripTime)
    }

    /// Queues one RTP packet of `payload` on send stream `ssrc`; false for an unknown SSRC.
    @discardableResult
    public mutating func send(_ payload: RtpPayload, ssrc: UInt32, mediaTimestamp: UInt32, now: Instant) -> Bool {
        guard let packet = sendStreams[ssrc]?.makePacket(payload, mediaTimestamp: mediaTimestamp, now: now) else {
            return false
        }
        outgoing.append(.rtp(packet))
        return true
    }

    /// Accounts for a received (already unprotected) RTP packet. Returns the packet to
    /// depacketize (an RTX resend comes back as the original packet), or nil for a
    /// duplicate, an unknown SSRC, a malformed RTX packet or a padding-only packet
    /// (bandwidth probes: on a media stream they still count in its sequence).
    public mutating func handleRtp(_ packet: RtpPacket, now: Instant) -> RtpPacket? {
        var media = packet
        if let mediaSsrc = rtxStreams[packet.ssrc] {
            if packet.payloadRange.isEmpty {
                counters.paddingOnlyPackets += 1
                return nil
            }
            guard let original = unwrapRtx(packet, mediaSsrc: mediaSsrc) else {
                counters.malformedRtx += 1
                return nil
            }
            media = original
        }
        guard let stream = receiveStreams.index(forKey: media.ssrc) else {
            counters.unknownSsrcPackets += 1
            return nil
        }
        if media.ssrc == packet.ssrc, lastPayloadTypes[media.ssrc] != media.payloadType {
            lastPayloadTypes[media.ssrc] = media.payloadType
        }
        // In place: reading a field of `receiveStreams.values[stream]` copies the stream.
        let reception = receiveStreams.values[stream].account(sequenceNumber: media.sequenceNumber, timestamp: media.timestamp, now: now)
        if let recovery = reception.recovery {
            longestRecovery = max(longestRecovery, recovery)
            let before = roundTripTime
            updateNackRoundTripTime()
            repaceNacks(ifRoundTripChangedFrom: before, now: now)
        }
        if reception.fresh, media.payloadRange.isEmpty {
            counters.paddingOnlyPackets += 1
            return nil
        }
        return reception.fresh ? media : nil
    }

    /// RFC 4588 4: the RTX payload is the original sequence number, then the original
    /// payload; the original payload type is that last seen on the media stream.
    private mutating func unwrapRtx(_ packet: RtpPacket, mediaSsrc: UInt32) -> RtpPacket? {
        guard packet.payloadRange.count >= 2, let payloadType = lastPayloadTypes[mediaSsrc] else { return nil }
        let start = packet.payloadRange.lowerBound
        let sequence = UInt16(packet.bytes[start]) << 8 | UInt16(packet.bytes[start + 1])
        writer.reset()
        RtpHeader(
            marker: packet.marker, payloadType: payloadType, sequenceNumber: sequence, timestamp: packet.timestamp,
            ssrc: mediaSsrc
        ).write(payload: packet.bytes[(start + 2)..<packet.payloadRange.upperBound], to: &writer)
        return try? RtpPacket(parsing: writer.bytes)
    }

    /// Asks the sender of `ssrc` for a keyframe: a PLI (RFC 4585 6.3.1) or a FIR with a
    /// new command sequence number (RFC 5104 4.3.1). Call it whenever a keyframe is
    /// missing (no keyframe yet, a frame dropped): requests closer together than
    /// `keyframeRequestInterval` or the round-trip time are suppressed, as the answer
    /// to the last one is still on its way. Returns whether a request went out.
    @discardableResult
    public mutating func requestKeyframe(ssrc: UInt32, fullIntraRequest: Bool = false, now: Instant) -> Bool {
        let spacing = max(configuration.keyframeRequestInterval, roundTripTime ?? .zero)
        guard let stream = receiveStreams[ssrc], stream.lastKeyframeRequest.map({ now - $0 >= spacing }) ?? true
        else { return false }
        receiveStreams[ssrc]?.countKeyframeRequest(fullIntraRequest: fullIntraRequest, now: now)
        writer.reset()
        if fullIntraRequest {
            firSequence &+= 1
            FullIntraRequest(senderSsrc: localSsrc, entries: [.init(ssrc: ssrc, sequenceNumber: firSequence)])
                .write(to: &writer)
        } else {
            PictureLossIndication(senderSsrc: localSsrc, mediaSsrc: ssrc).write(to: &writer)
        }
        outgoing.append(.rtcp(writer.bytes))
        return true
    }

    /// The SSRC our reports and feedback come from.
    var localSsrc: UInt32 { sendStreams.keys.min() ?? configuration.feedbackSsrc }

    public mutating func pollTransmit() -> Packet? { outgoing.isEmpty ? nil : outgoing.removeFirst() }

    public mutating func pollEvent() -> Event? { events.isEmpty ? nil : events.removeFirst() }

    /// When `handleTimeout` is next needed: the next report or NACK.
    public func pollTimeout() -> Instant? {
        var session = self
        return session.pollTimeoutInPlace()
    }

    /// `pollTimeout()` for a caller that holds the session in a class (a `Peer`, after every
    /// datagram): being mutating it reads the session where it lies, where a non-mutating
    /// call copied the session (392 bytes). Each stream is reached in place by a mutating
    /// call through its index: reading a field of `values[index]` copied the stream, and
    /// walking `values.indices` held the dictionary's storage, so that a mutating call
    /// copied the whole dictionary.
    public mutating func pollTimeoutInPlace() -> Instant? {
        var earliest = nextReport
        var index = receiveStreams.startIndex
        while index != receiveStreams.endIndex {
            receiveStreams.values[index].lowerToNextNack(&earliest)
            index = receiveStreams.index(after: index)
        }
        return earliest
    }

    /// Reception figures of receive stream `ssrc`.
    public func receiveStatistics(ssrc: UInt32, now: Instant) -> ReceiveStreamStatistics? {
        receiveStreams[ssrc]?.snapshot(now: now)
    }

    /// What send stream `ssrc` has sent.
    public func sendCounters(ssrc: UInt32) -> SendStream.Counters? { sendStreams[ssrc]?.counters }

    /// The timestamp offset of a sent stream (see `SendStream.timestampOffset`).
    public func sendTimestampOffset(ssrc: UInt32) -> UInt32? { sendStreams[ssrc]?.timestampOffset }

    /// The sequence number the next packet of send stream `ssrc` will carry.
    public func nextSequenceNumber(ssrc: UInt32) -> UInt16? { sendStreams[ssrc]?.nextSequenceNumber }
}
