import RTCBase
import RTP

/// RTCP in and out: reports (RFC 3550 6.4), NACK (RFC 4585 6.2.1), PLI/FIR handling.
extension RtpSession {
    /// Takes one received (already unprotected) RTCP datagram. Packets before a
    /// malformed one are used; the rest is counted and dropped.
    public mutating func handleRtcp(_ bytes: [UInt8], now: Instant) {
        interval.observe(packetSize: bytes.count)
        var reader = RtcpCompoundReader(bytes)
        while true {
            do {
                guard let packet = try reader.next() else { return }
                handle(packet, now: now)
            } catch {
                counters.malformedRtcp += 1
                return
            }
        }
    }

    private mutating func handle(_ packet: RtcpPacket, now: Instant) {
        switch packet {
        case .senderReport(let report):
            receiveStreams[report.ssrc]?.receivedSenderReport(report, now: now)
            handleReportBlocks(report.reports, now: now)
        case .receiverReport(let report):
            handleReportBlocks(report.reports, now: now)
        case .goodbye(let goodbye):
            for ssrc in goodbye.ssrcs { events.append(.goodbye(ssrc: ssrc, reason: goodbye.reason)) }
        case .nack(let nack):
            let suppression = max(.milliseconds(5), (roundTripTime ?? .zero) / 2)
            guard let resends = sendStreams[nack.mediaSsrc]?.answerNack(
                nack.lostSequenceNumbers, now: now, suppression: suppression)
            else { return }
            outgoing.append(contentsOf: resends.map(Packet.rtp))
        case .pictureLoss(let pli):
            if sendStreams[pli.mediaSsrc]?.keyframeRequested(firSequence: nil) == true {
                events.append(.keyframeRequested(ssrc: pli.mediaSsrc))
            }
        case .fullIntraRequest(let fir):
            for entry in fir.entries where sendStreams[entry.ssrc]?.keyframeRequested(firSequence: entry.sequenceNumber) == true {
                events.append(.keyframeRequested(ssrc: entry.ssrc))
            }
        case .transportCc, .remb:
            events.append(.feedback(packet))
        case .sourceDescription, .other:
            break
        }
    }

    /// RTT = A - LSR - DLSR in 1/65536 s (RFC 3550 6.4.1) for blocks about our streams.
    private mutating func handleReportBlocks(_ blocks: [ReportBlock], now: Instant) {
        for block in blocks where sendStreams[block.ssrc] != nil && block.lastSenderReport != 0 {
            let arrival = configuration.ntp.compact(at: now)
            let roundTrip = arrival &- block.lastSenderReport &- block.delaySinceLastSenderReport
            guard roundTrip < 0x8000_0000 else { continue }  // negative: clocks or a bogus echo
            let duration = Duration.nanoseconds(Int64(roundTrip) * 1_000_000_000 / 65_536)
            let before = roundTripTime
            reportRoundTripTime = duration
            events.append(.roundTripTime(duration))
            repaceNacks(ifRoundTripChangedFrom: before, now: now)
        }
    }

    /// Sends what is due: NACKs (reduced-size, RFC 5506) and the periodic report.
    public mutating func handleTimeout(now: Instant) {
        let roundTrip = roundTripTime
        for ssrc in receiveStreams.keys.sorted() {
            guard let due = receiveStreams[ssrc]?.dueNacks(now: now, roundTripTime: roundTrip), !due.isEmpty else {
                continue
            }
            writer.reset()
            GenericNack(senderSsrc: localSsrc, mediaSsrc: ssrc, lost: due).write(to: &writer)
            outgoing.append(.rtcp(writer.bytes))
        }
        if now >= nextReport { sendReport(now: now) }
    }

    /// A compound report (RFC 3550 6.1): an SR per send stream that has sent (report
    /// blocks on the first), else an RR, then SDES with our CNAME.
    private mutating func sendReport(now: Instant) {
        var blocks: [ReportBlock] = []
        for ssrc in receiveStreams.keys.sorted() {
            if let block = receiveStreams[ssrc]?.makeReportBlock(now: now) { blocks.append(block) }
        }
        writer.reset()
        var sources: [UInt32] = []
        for ssrc in sendStreams.keys.sorted() {
            guard let report = sendStreams[ssrc]?.makeSenderReport(now: now, ntp: configuration.ntp, reports: blocks)
            else { continue }
            report.write(to: &writer)
            sources.append(ssrc)
            blocks = []
        }
        if sources.isEmpty {
            ReceiverReport(ssrc: localSsrc, reports: blocks).write(to: &writer)
            sources.append(localSsrc)
        }
        SourceDescription(chunks: sources.map { .init(ssrc: $0, cname: configuration.cname) }).write(to: &writer)
        interval.observe(packetSize: writer.count)
        outgoing.append(.rtcp(writer.bytes))
        counters.reportsSent += 1
        let weSent = sendStreams.values.contains { $0.counters.packets > 0 }
        let senders = receiveStreams.count + (weSent ? 1 : 0)
        nextReport = now + interval.nextInterval(
            members: receiveStreams.count + 1, senders: senders, weSent: weSent, initial: false)
    }
}
