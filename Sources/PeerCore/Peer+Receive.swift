import RTCBase
import RTP
import RTPSession

/// Received datagrams: RFC 7983 demultiplexing, SRTP/SRTCP, frames and keyframe requests.
extension Peer: DatagramMachine {
    /// Takes one datagram received from `input.source` on the local socket bound to
    /// `input.destination`. Malformed or unexpected input is counted in
    /// `stats(now:).malformed` and dropped.
    public func handle(_ input: ReceivedDatagram, now: Instant) {
        input.payload.withUnsafeBytes { handle(borrowed: $0, from: input.source, to: input.destination, now: now) }
    }

    /// `handle(_:now:)` reading the datagram in place (the socket's receive buffer): an
    /// SRTP packet is decrypted straight from it; only what a part keeps (STUN, DTLS,
    /// RTCP, all rare next to media) is copied.
    public func handle(borrowed datagram: UnsafeRawBufferPointer, from source: SocketAddress, to local: SocketAddress,
                       now: Instant) {
        guard !isClosed else { return }
        demultiplex(datagram, from: source, to: local, now: now)
        // An RTP packet (RFC 7983 7, not RTCP: RFC 5761 4) gives ICE and DTLS nothing to
        // do, and every other entry point drains them: its NACKs, reports and events are
        // the RTP session's only. Polling ICE and DTLS after each was 2.7 % of a player's CPU.
        if Self.isRtp(datagram) { drainRtp(now: now) } else { flush(now: now) }
    }

    private static func isRtp(_ datagram: UnsafeRawBufferPointer) -> Bool {
        guard let first = datagram.first, (128...191).contains(first) else { return false }
        return datagram.count < 2 || !(192...223).contains(datagram[1])
    }

    /// RFC 7983 7: 0-3 STUN, 20-63 DTLS, 64-79 TURN ChannelData, 128-191 RTP/RTCP.
    private func demultiplex(_ datagram: UnsafeRawBufferPointer, from source: SocketAddress, to local: SocketAddress,
                             now: Instant) {
        guard let first = datagram.first else {
            malformed.unknownDatagrams += 1
            return
        }
        switch first {
        case 0...3, 64...79:
            let dropped = ice.stats.dropped
            let relayed = ice.handle(Array(datagram), from: source, to: local, now: now)
            malformed.stun += ice.stats.dropped - dropped
            // Application data a peer sent through our TURN relay: demultiplex it again.
            if let relayed, let kind = relayed.first, kind > 3, !(64...79).contains(kind) {
                relayed.withUnsafeBytes { demultiplex($0, from: source, to: local, now: now) }
            }
        case 20...63:
            handleDtls(Array(datagram), now: now)
        case 128...191:
            // RFC 5761 4: RTCP packet types 192-223 sit where RTP has marker + PT 64-95.
            if Self.isRtp(datagram) {
                handleSrtp(datagram, now: now)
            } else {
                handleSrtcp(Array(datagram), now: now)
            }
        default:
            malformed.unknownDatagrams += 1
        }
    }

    /// A ClientHello may beat the answer, or ICE, to the DTLS server: it keeps a few until
    /// a pair is usable (`deliverEarlyDtls`), so its flight leaves, and the flight's timer
    /// starts, when it can be sent and with the timeout set from ICE's round trip, as
    /// libwebrtc's DtlsTransport replays a ClientHello it cached.
    func handleDtls(_ datagram: [UInt8], now: Instant) {
        guard let dtls, dtls.role == .client || timeline.iceConnected != nil else {
            if earlyDtls.count < 8 { earlyDtls.append(datagram) } else { malformed.dtls += 1 }
            return
        }
        let dropped = dtls.droppedRecords
        dtls.handle(datagram, now: now)
        malformed.dtls += dtls.droppedRecords - dropped
    }

    private func handleSrtcp(_ datagram: [UInt8], now: Instant) {
        guard let srtpIn, let plain = try? srtpIn.unprotectRtcp(datagram) else {
            malformed.srtcp += 1
            return
        }
        let before = rtp.counters.malformedRtcp
        rtp.handleRtcp(plain, now: now)
        malformed.rtcp += rtp.counters.malformedRtcp - before
    }

    /// The RTP header is parsed once, from the protected datagram (SRTP leaves it in the
    /// clear, RFC 3711 3.1): SRTP takes its length, sequence number and SSRC, the packet
    /// handed to the session reuses it.
    private func handleSrtp(_ datagram: UnsafeRawBufferPointer, now: Instant) {
        guard let srtpIn, let header = try? RtpPacketHeader(parsing: datagram),
            let plain = try? srtpIn.unprotectRtp(
                datagram, headerLength: header.length, sequence: header.sequenceNumber, ssrc: header.ssrc)
        else {
            malformed.srtp += 1
            return
        }
        if timeline.firstPacket == nil {
            timeline.firstPacket = now
            events.append(.phaseCompleted(.firstPacket, at: now))
        }
        guard let packet = try? RtpPacket(header: header, plain: plain) else {
            malformed.rtp += 1
            return
        }
        learnStream(packet)
        guard let delivered = rtp.handleRtp(packet, now: now) else { return }
        guard let index = sectionIndex(receiving: delivered.ssrc) else {
            malformed.unknownStreams += 1
            return
        }
        let wait = media[index].info.nack ? frameWait() : Self.reorderWait
        malformed.payloads += media[index].assemble(
            delivered, now: now, wait: wait, deltaFrameBytes: configuration.deltaFrameBytes)
        drainFrames(index, now: now)
    }

    /// How long a frame of a NACKed stream waits for an older incomplete one, as a
    /// libwebrtc receiver does (its NACK module retries a packet every round trip up to
    /// 10 times, and its frame buffer waits while later frames cannot be decoded): while
    /// the missing packets are still being NACKed (`RtpSession.resendWindow`), or as long
    /// as a resend has taken plus a margin when that was longer (an SFU first waits for
    /// the publisher's resend), never more than `maxResendWait`.
    private func frameWait() -> Duration {
        min(Self.maxResendWait, max(rtp.resendWindow, rtp.longestRecovery + configuration.frameWaitMargin))
    }

    /// The section receiving `ssrc`. Asked for every packet: an index loop reads the
    /// field in place, where a predicate over the elements copied whole sections.
    private func sectionIndex(receiving ssrc: UInt32) -> Int? {
        for index in media.indices where media[index].info.remoteSsrc == ssrc { return index }
        return nil
    }

    /// A remote SDP without `a=ssrc` leaves the SSRC to the first packet: an unknown SSRC
    /// whose payload type belongs to a receiving section that has none yet is bound to it.
    private func learnStream(_ packet: RtpPacket) {
        guard sectionIndex(receiving: packet.ssrc) == nil, !media.indices.contains(where: { media[$0].remoteRtxSsrc == packet.ssrc }),
            let index = media.firstIndex(where: {
                $0.receives && $0.info.remoteSsrc == nil && $0.receivePayloadTypes.contains(packet.payloadType)
            })
        else { return }
        addReceiveStream(index, ssrc: packet.ssrc, rtxSsrc: nil)
    }

    /// Emits, as the streams end, the complete frames of sections that do not NACK still
    /// held for older incomplete ones (waiting only for reordering, `reorderWait`), so a
    /// frame that arrived in the last 20 ms after a loss counts as played. A NACKed
    /// section's held frames wait for resends that may still come: they stay unplayed.
    public func releaseHeldFrames(now: Instant) {
        for index in media.indices where media[index].assembler != nil && !media[index].info.nack {
            media[index].assembler?.releaseHeld()
            drainFrames(index, now: now)
        }
    }

    /// Emits the section's complete frames and asks for a keyframe when one is missing:
    /// none yet, or frames were dropped since the last one (RFC 4585 6.3.1).
    func drainFrames(_ index: Int, now: Instant) {
        let info = media[index].info
        // A section has an assembler (so frames) only once a packet of its SSRC arrived.
        guard let ssrc = info.remoteSsrc else { return }
        var missingKeyframe = false
        // In place: a copy of the assembler would copy its packet ring on every packet.
        while let frame = media[index].assembler?.pollFrame() {
            if !frame.isKeyframe, media[index].waitingForKeyframe { missingKeyframe = true }
            if frame.isKeyframe {
                media[index].waitingForKeyframe = false
                media[index].askedForKeyframe = false
                if timeline.firstFrame == nil, info.codec.isVideo || !media.contains(where: { $0.receives && $0.info.codec.isVideo }) {
                    timeline.firstFrame = now
                    events.append(.phaseCompleted(.firstFrame, at: now))
                }
            }
            events.append(.frame(ReceivedFrame(
                mid: info.mid, ssrc: ssrc, kind: info.kind, codec: info.codec, data: frame.data, isKeyframe: frame.isKeyframe,
                rtpTimestamp: frame.timestamp, firstArrival: frame.firstArrival, lastArrival: frame.lastArrival)))
        }
        if media[index].framesDroppedSinceLastAsked() { missingKeyframe = true }
        if info.codec.isVideo, missingKeyframe { requestKeyframe(index, now: now) }
    }

    private func requestKeyframe(_ index: Int, now: Instant) {
        guard let ssrc = media[index].info.remoteSsrc else { return }
        rtp.requestKeyframe(ssrc: ssrc, now: now)
        media[index].askedForKeyframe = true
        let retry = now + Self.keyframeRetryInterval
        nextKeyframeRetry = min(nextKeyframeRetry ?? retry, retry)
    }

    /// Asks again for every video stream still without a keyframe.
    func retryKeyframeRequests(now: Instant) {
        nextKeyframeRetry = nil
        for index in media.indices where media[index].askedForKeyframe {
            requestKeyframe(index, now: now)
        }
    }
}
