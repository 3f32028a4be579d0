import RTCBase

/// Moving user data: DATA and its SACKs (RFC 9260 6), retransmission (6.3), FORWARD TSN
/// (RFC 3758 3.5, 3.6), and packing chunks into packets (6.10: control chunks first).
extension SctpAssociation {
    mutating func process(_ chunk: SctpChunk, packetTag: UInt32, sawData: inout Bool, now: Instant) {
        switch chunk {
        case .initiate(let initiate): receivedInit(initiate, now: now)
        case .initAck(let ack): receivedInitAck(ack, now: now)
        case .cookieEcho(let cookie): receivedCookieEcho(cookie, now: now)
        case .cookieAck: receivedCookieAck()
        case .data(let data):
            sawData = true
            receivedData(data, now: now)
        case .sack(let sack): if received != nil { acknowledged(sack, now: now) }
        case .forwardTSN(let forward): receivedForwardTSN(forward, now: now)
        case .heartbeat(let info): send([.heartbeatAck(info: info)], tag: peerTag)
        case .heartbeatAck, .error: break
        case .abort: terminate(.abortedByPeer)
        case .shutdown(let cumulative): if received != nil { receivedShutdown(cumulativeTSN: cumulative, now: now) }
        case .shutdownAck: receivedShutdownAck()
        case .shutdownComplete: if state == .shutdownAckSent { terminate(.shutdown) }
        case .unknown: tally.unknownChunks += 1
        }
    }

    private var acceptsData: Bool {
        switch state {
        case .established, .shutdownPending, .shutdownSent: return true
        default: return false
        }
    }

    private var advertisedWindow: UInt32 {
        UInt32(max(0, Int(configuration.receiveWindow) - reassembly.bufferedBytes))
    }

    private mutating func receivedData(_ data: DataChunk, now: Instant) {
        guard acceptsData, var received else { return }
        defer { self.received = received }
        if reassembly.bufferedBytes + data.payload.count > Int(configuration.receiveWindow),
           data.tsn != received.cumulative &+ 1 {
            tally.droppedChunks += 1
            return
        }
        switch received.insert(data.tsn) {
        case .duplicate: tally.duplicateTSNs += 1
        case .tooFarAhead: tally.droppedChunks += 1
        case .new: for message in reassembly.add(data) { deliver(message, now: now) }
        }
    }

    private mutating func receivedForwardTSN(_ forward: ForwardTSNChunk, now: Instant) {
        guard acceptsData, var received else { return }
        received.forward(to: forward.newCumulativeTSN)
        self.received = received
        reassembly.forget(upTo: forward.newCumulativeTSN)
        for entry in forward.streams {
            for message in reassembly.skip(stream: entry.stream, upTo: entry.ssn) { deliver(message, now: now) }
        }
        sackDue = true
    }

    /// RFC 9260 6.2: SACK at once when something is out of order or duplicated, or on
    /// every second DATA packet; otherwise within `sackDelay`.
    mutating func scheduleSack(now: Instant) {
        dataPacketsSinceSack += 1
        if dataPacketsSinceSack >= 2 || received?.hasGaps == true || received?.hasDuplicates == true {
            sackDue = true
        } else if delayedSack == nil {
            delayedSack = now + configuration.sackDelay
        }
    }

    mutating func acknowledged(_ sack: SackChunk, now: Instant) {
        let result = outbound.acknowledge(sack, now: now)
        if let rtt = result.rtt { rto.measured(rtt) }
        if result.cumulativeAdvanced { errorCount = 0 }
        // RFC 3758 3.5 C2, C5: a FORWARD TSN when the ack point moves, and again when a
        // SACK a round trip later shows the peer still behind it (the last one was lost).
        let forward = outbound.forwardTSN
        if let forward {
            let roundTrip = rto.srtt ?? rto.rto
            if forward.newCumulativeTSN != lastForwardTSN?.tsn || now - (lastForwardTSN?.sentAt ?? now) > roundTrip {
                forwardTSNDue = true
            }
        }
        if !outbound.hasInFlight && forward == nil {
            t3 = nil
        } else if result.cumulativeAdvanced {
            t3 = now + rto.rto
        }
        continueShutdown(now: now)
    }

    /// T3-rtx expiry (6.3.3): back off, retransmit, or give up after Association.Max.Retrans.
    mutating func t3Expired(now: Instant) {
        errorCount += 1
        guard errorCount <= configuration.maxRetransmits else {
            abort("no SACK after \(configuration.maxRetransmits) retransmissions", now: now)
            return
        }
        outbound.retransmissionTimerExpired(now: now)
        rto.backOff()
        forwardTSNDue = outbound.forwardTSN != nil
        t3 = nil
    }

    /// Packs what is due into packets of at most one MTU: SACK, FORWARD TSN, then DATA
    /// within the windows (6.1). Starts T3-rtx when DATA goes out and none is running (6.3.2 R1).
    mutating func flush(now: Instant) {
        guard !finished, received != nil else { return }
        while true {
            var chunks: [SctpChunk] = []
            var room = configuration.mtu - SctpPacket.headerSize
            if sackDue || (delayedSack != nil && outbound.hasUnsentOrRetransmit), var received {
                let sack = SctpChunk.sack(received.sack(window: advertisedWindow))
                self.received = received
                chunks.append(sack)
                room -= sack.wireSize
                sackDue = false
                delayedSack = nil
                dataPacketsSinceSack = 0
            }
            if forwardTSNDue, let forward = outbound.forwardTSN {
                let chunk = SctpChunk.forwardTSN(forward)
                chunks.append(chunk)
                room -= chunk.wireSize
                lastForwardTSN = (forward.newCumulativeTSN, now)
                tally.forwardTSNsSent += 1
            }
            forwardTSNDue = false
            var sentData = false
            if acceptsData || state == .shutdownReceived {
                while let data = outbound.nextToSend(room: room, now: now) {
                    let chunk = SctpChunk.data(data)
                    room -= chunk.wireSize
                    chunks.append(chunk)
                    sentData = true
                }
            }
            guard !chunks.isEmpty else { break }
            send(chunks, tag: peerTag)
            if t3 == nil, sentData || outbound.forwardTSN != nil, outbound.hasInFlight || outbound.forwardTSN != nil {
                t3 = now + rto.rto
            }
        }
    }
}
