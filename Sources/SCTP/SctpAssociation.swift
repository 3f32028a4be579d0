import RTCBase

/// One SCTP association over one DTLS connection (RFC 9260, carried as RFC 8261 says: no
/// IP addresses, both ports 5000, one association per DTLS connection), with the WebRTC
/// data channels on top (RFC 8831, DCEP RFC 8832). It is a `SansIOMachine`: input is one
/// SCTP packet as DTLS decrypted it, output one packet for DTLS to encrypt, and time comes
/// only from the caller.
///
/// Why our own SCTP and not usrsctp (Debian's libusrsctp-dev): usrsctp keeps global state
/// (one `usrsctp_init` per process, a global lock and a global timer wheel driven by
/// `usrsctp_handle_timers`), so thousands of associations in one process share its locks
/// and its clock, and virtual-time tests cannot give each association its own time. Here
/// an association is a value with its own timers; the host owns the clock.
///
/// Left out on purpose: multi-homing and address parameters (RFC 8261 4), stream reset
/// (RFC 6525; a channel is closed by closing the association), I-DATA (RFC 8260), and
/// reneging of gap-acked chunks (a gap ack is taken as final). The peer is taken to
/// support FORWARD TSN, which RFC 8831 6.2 requires of every WebRTC endpoint.
public struct SctpAssociation: SansIOMachine, Sendable {
    public typealias Input = [UInt8]
    public typealias Output = [UInt8]
    public typealias Event = SctpEvent

    /// Which side of the DTLS handshake this peer is: the client opens the association
    /// (sends INIT) and takes even stream ids, the server odd ones (RFC 8832 6).
    public enum Role: Sendable { case client, server }

    /// RFC 9260 4's states.
    public enum State: Sendable, Equatable {
        case closed, cookieWait, cookieEchoed, established
        case shutdownPending, shutdownSent, shutdownReceived, shutdownAckSent
    }

    public struct Configuration: Sendable {
        public var role: Role
        /// Largest SCTP packet handed to DTLS. DTLS adds its record header, explicit nonce
        /// or IV, MAC and padding (37 bytes with AES-GCM, up to 64 with AES-CBC-SHA1), so
        /// 1130 keeps each datagram within the 1200 bytes `DtlsEndpoint.mtu` allows.
        public var mtu = 1130
        /// What we advertise in a_rwnd (RFC 9260 6.2.1) and may buffer for reassembly.
        public var receiveWindow: UInt32 = 1 << 20
        /// The a=max-message-size we announce and enforce on send (RFC 8841 6).
        public var maxMessageSize = 262_144
        /// RFC 9260 16: RTO.Initial, RTO.Min, RTO.Max, Max.Init.Retransmits, Association.Max.Retrans.
        public var rtoInitial = Duration.seconds(1)
        public var rtoMin = Duration.seconds(1)
        public var rtoMax = Duration.seconds(60)
        public var maxInitRetransmits = 8
        public var maxRetransmits = 10
        /// SCTP ports (RFC 8841 5: a=sctp-port, 5000 by default).
        public var localPort: UInt16 = 5000
        public var remotePort: UInt16 = 5000
        /// Streams we ask for in each direction (the stream ids data channels may use).
        public var streams: UInt16 = 1024
        /// How long a SACK may wait for a second DATA packet (RFC 9260 6.2, at most 500 ms).
        public var sackDelay = Duration.milliseconds(200)

        public init(role: Role) { self.role = role }
    }

    public let configuration: Configuration
    public internal(set) var state: State = .closed
    var tally = SctpCounters()

    /// Everything counted so far, the sender's retransmission figures included.
    public var counters: SctpCounters {
        var counters = tally
        counters.retransmissions = outbound.counters.retransmissions
        counters.fastRetransmits = outbound.counters.fastRetransmits
        counters.abandonedMessages = outbound.counters.abandonedMessages
        counters.t3Expiries = outbound.counters.t3Expiries
        return counters
    }

    let localTag: UInt32
    let localInitialTSN: UInt32
    let secret: [UInt8]
    var peerTag: UInt32 = 0
    var outbound: OutboundQueue
    var received: ReceivedTSNs?
    var reassembly = Reassembly()
    var rto: RetransmissionTimeout
    /// T1-init (INIT or COOKIE ECHO to resend), T3-rtx, T2-shutdown and the delayed SACK.
    var t1: (deadline: Instant, chunk: SctpChunk, tries: Int, interval: Duration)?
    var t3: Instant?
    var t2: (deadline: Instant, tries: Int)?
    var delayedSack: Instant?
    var sackDue = false
    var dataPacketsSinceSack = 0
    var forwardTSNDue = false
    var lastForwardTSN: (tsn: UInt32, sentAt: Instant)?
    var errorCount = 0
    var finished = false
    var outgoing = FIFO<[UInt8]>()
    var events = FIFO<SctpEvent>()
    var channels: [UInt16: ChannelState] = [:]
    var nextChannelID: UInt16

    struct ChannelState: Sendable {
        var channel: DataChannel
        var open: Bool
        /// The peer acked our DATA_CHANNEL_OPEN (or opened it): until then we send ordered
        /// (RFC 8832 6).
        var acked: Bool
    }

    /// `seed` gives the verification tag, the initial TSN and the cookie secret (RFC 9260
    /// 5.1.3 wants them unpredictable: seed from a real random source outside tests).
    public init(configuration: Configuration, seed: UInt64) {
        self.configuration = configuration
        var random = SeededGenerator(seed: seed)
        var tag: UInt32 = 0
        while tag == 0 { tag = UInt32(truncatingIfNeeded: random.next()) }
        localTag = tag
        localInitialTSN = UInt32(truncatingIfNeeded: random.next())
        secret = (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        outbound = OutboundQueue(initialTSN: localInitialTSN, mtu: configuration.mtu, peerWindow: Int(configuration.receiveWindow))
        rto = RetransmissionTimeout(initial: configuration.rtoInitial, minimum: configuration.rtoMin, maximum: configuration.rtoMax)
        nextChannelID = configuration.role == .client ? 0 : 1
    }

    public var isEstablished: Bool { state == .established }
    public var openChannels: [DataChannel] { channels.values.filter(\.open).map(\.channel).sorted { $0.id < $1.id } }

    /// The client side starts the handshake with INIT (RFC 9260 5.1 A); the server waits
    /// for one (it answers an INIT in any state, so both sides may call this).
    public mutating func connect(now: Instant) {
        guard state == .closed, !finished else { return }
        let initiate = SctpChunk.initiate(InitChunk(
            initiateTag: localTag, advertisedWindow: configuration.receiveWindow, outboundStreams: configuration.streams,
            inboundStreams: configuration.streams, initialTSN: localInitialTSN))
        send([initiate], tag: 0)
        state = .cookieWait
        t1 = (now + configuration.rtoInitial, initiate, 0, configuration.rtoInitial)
    }

    public mutating func handle(_ input: [UInt8], now: Instant) {
        guard !finished else {
            answerAfterClose(input)
            return
        }
        tally.packetsReceived += 1
        let packet: SctpPacket
        do {
            packet = try SctpPacket.parse(input)
        } catch {
            if error.code == .integrity { tally.badChecksums += 1 } else { tally.malformedPackets += 1 }
            return
        }
        guard acceptsTag(of: packet) else {
            tally.wrongTags += 1
            return
        }
        var sawData = false
        for chunk in packet.chunks {
            guard !finished else { return }
            process(chunk, packetTag: packet.verificationTag, sawData: &sawData, now: now)
        }
        if sawData { scheduleSack(now: now) }
        flush(now: now)
    }

    public mutating func handleTimeout(now: Instant) {
        guard !finished else { return }
        if let timer = t1, timer.deadline <= now { t1Expired(timer, now: now) }
        if let deadline = t3, deadline <= now { t3Expired(now: now) }
        if let timer = t2, timer.deadline <= now { t2Expired(timer, now: now) }
        if let deadline = delayedSack, deadline <= now {
            delayedSack = nil
            sackDue = true
        }
        flush(now: now)
    }

    public mutating func pollTransmit() -> [UInt8]? { outgoing.popFirst() }
    public mutating func pollEvent() -> SctpEvent? { events.popFirst() }

    public func pollTimeout() -> Instant? {
        [t1?.deadline, t3, t2?.deadline, delayedSack].compactMap { $0 }.min()
    }

    /// Graceful close (RFC 9260 9.2): SHUTDOWN once everything queued has been acked.
    public mutating func close(now: Instant) {
        switch state {
        case .established:
            state = .shutdownPending
            continueShutdown(now: now)
            flush(now: now)
        case .closed, .cookieWait, .cookieEchoed: abort("closed before the association was up", now: now)
        default: break
        }
    }

    /// ABORT (RFC 9260 9.1): the association ends now.
    public mutating func abort(_ reason: String, now: Instant) {
        guard !finished else { return }
        if peerTag != 0 { send([.abort(reflected: false)], tag: peerTag) }
        terminate(.aborted(reason))
    }

    /// RFC 9260 8.4 (5): a SHUTDOWN ACK for an association already gone (our SHUTDOWN
    /// COMPLETE was lost) gets a SHUTDOWN COMPLETE with the T bit, so the peer closes too.
    private mutating func answerAfterClose(_ input: [UInt8]) {
        guard let packet = try? SctpPacket.parse(input), packet.chunks.contains(.shutdownAck) else { return }
        send([.shutdownComplete(reflected: true)], tag: packet.verificationTag)
    }

    mutating func terminate(_ reason: SctpCloseReason) {
        finished = true
        state = .closed
        t1 = nil
        t2 = nil
        t3 = nil
        delayedSack = nil
        events.append(.closed(reason))
    }

    /// Serializes one packet to the peer.
    mutating func send(_ chunks: [SctpChunk], tag: UInt32) {
        let packet = SctpPacket(sourcePort: configuration.localPort, destinationPort: configuration.remotePort,
                                verificationTag: tag, chunks: chunks)
        outgoing.append(packet.serialize())
        tally.packetsSent += 1
    }

    /// RFC 9260 8.5 and 8.5.1: which verification tag each packet must carry.
    private func acceptsTag(of packet: SctpPacket) -> Bool {
        switch packet.chunks[0] {
        case .initiate: return packet.verificationTag == 0 && packet.chunks.count == 1
        case .abort(let reflected), .shutdownComplete(let reflected):
            return packet.verificationTag == (reflected ? peerTag : localTag)
        case .cookieEcho: return packet.verificationTag == localTag
        default: return packet.verificationTag == localTag && localTag != 0
        }
    }
}

/// What an association counted; malformed input is counted here and dropped.
public struct SctpCounters: Sendable, Equatable {
    public var packetsReceived = 0
    public var packetsSent = 0
    public var malformedPackets = 0
    public var badChecksums = 0
    public var wrongTags = 0
    public var unknownChunks = 0
    public var badCookies = 0
    public var duplicateTSNs = 0
    /// DATA refused: beyond 65535 TSNs ahead, or the receive buffer was full.
    public var droppedChunks = 0
    public var malformedDCEP = 0
    /// Messages on a stream with no channel, or with a PPID data channels do not use.
    public var droppedMessages = 0
    public var messagesSent = 0
    public var messagesReceived = 0
    public var retransmissions = 0
    public var fastRetransmits = 0
    public var abandonedMessages = 0
    public var t3Expiries = 0
    public var forwardTSNsSent = 0
}
