import RTCBase
import RTP
import SDP

/// Sending media: packetize, number (RtpSession), protect (SRTP), send on the selected pair.
extension Peer {
    /// RTP header (12 bytes) + RTX original sequence number (2) + the largest SRTP tag
    /// (16, AEAD): what a payload must leave free in `mtu`.
    static let packetOverhead = 12 + 2 + 16

    /// Sends one encoded frame on section `mid`. False (and counted in
    /// `framesRefused`) when not connected, when `mid` does not send, or when `frame`'s
    /// codec is not the one negotiated there.
    @discardableResult
    public func send(_ frame: EncodedMediaFrame, mid: String, now: Instant) -> Bool {
        transmit(frame, section: media.firstIndex { $0.info.mid == mid }, shared: nil, now: now)
    }

    /// Sends on the first sending section of `kind`.
    @discardableResult
    public func send(_ frame: EncodedMediaFrame, kind: MediaKind, now: Instant) -> Bool {
        transmit(frame, section: sendingSection(kind), shared: nil, now: now)
    }

    /// Sends a frame another packetizer already cut (`TrackPacketizer`), on the first
    /// sending section of `kind`; cut again here if its payload budget is not this peer's.
    @discardableResult
    public func send(_ packetized: PacketizedFrame, kind: MediaKind, now: Instant) -> Bool {
        let fits = packetized.maxPayloadSize == configuration.mtu - Self.packetOverhead
        return transmit(packetized.frame, section: sendingSection(kind), shared: fits ? packetized.payloads : nil, now: now)
    }

    private func sendingSection(_ kind: MediaKind) -> Int? {
        media.firstIndex { $0.info.kind == kind && $0.sends }
    }

    /// Numbers, protects and sends `frame` on section `index`: the `shared` payloads, or
    /// those the section's own packetizer cuts (in place: it keeps the picture ID).
    private func transmit(_ frame: EncodedMediaFrame, section index: Int?, shared: [RtpPayload]?, now: Instant) -> Bool {
        guard isConnected, !isClosed, let index, let ssrc = media[index].info.localSsrc,
            media[index].info.codec == frame.codec, media[index].packetizer != nil
        else {
            framesRefused += 1
            return false
        }
        let payloads = shared ?? media[index].packetizer?.packetize(frame, maxPayloadSize: configuration.mtu - Self.packetOverhead) ?? []
        media[index].framesSent += 1
        for payload in payloads { rtp.send(payload, ssrc: ssrc, mediaTimestamp: frame.rtpTimestamp, now: now) }
        drainRtp(now: now)
        return true
    }

    /// Per received section (by mid), the incomplete frames held longer than the
    /// assembler's wait that nothing later gave up (`FrameAssembler.framesStalled`): lost
    /// too. Walks each ring, so it is asked once, for the record, not with every `stats`.
    public func framesStalled(now: Instant) -> [String: Int] {
        var stalled: [String: Int] = [:]
        for section in media {
            if let assembler = section.assembler { stalled[section.info.mid] = assembler.framesStalled(now: now) }
        }
        return stalled
    }

    /// The peer's figures now (METRICS.md: setup phases, per received and sent stream).
    public func stats(now: Instant) -> PeerStats {
        var received: [ReceivedStreamStats] = []
        var sent: [SentStreamStats] = []
        for section in media {
            let info = section.info
            if let ssrc = info.remoteSsrc, let statistics = rtp.receiveStatistics(ssrc: ssrc, now: now) {
                let frames = section.assembler?.statistics
                received.append(ReceivedStreamStats(
                    mid: info.mid, codec: info.codec, rtp: statistics, framesCompleted: frames?.framesCompleted ?? 0,
                    keyframesCompleted: frames?.keyframesCompleted ?? 0, framesDropped: frames?.framesDropped ?? 0,
                    framesDroppedLate: frames?.framesDroppedLate ?? 0))
            }
            if let ssrc = info.localSsrc, let counters = rtp.sendCounters(ssrc: ssrc), let offset = rtp.sendTimestampOffset(ssrc: ssrc) {
                sent.append(SentStreamStats(mid: info.mid, codec: info.codec, ssrc: ssrc, frames: section.framesSent, counters: counters,
                                            timestampOffset: offset))
            }
        }
        var malformed = self.malformed
        malformed.unknownStreams += rtp.counters.unknownSsrcPackets + rtp.counters.malformedRtx
        return PeerStats(
            timeline: timeline, failure: failure, ice: ice.stats, iceState: ice.state,
            dtlsRetransmissions: dtls?.retransmissions ?? 0,
            roundTripTime: rtp.roundTripTime ?? ice.stats.selectedPairRtt, received: received, sent: sent,
            malformed: malformed, framesRefused: framesRefused)
    }
}
