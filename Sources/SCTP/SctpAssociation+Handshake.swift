import RTCBase

/// Setting up and tearing down: RFC 9260 5.1 (INIT, INIT ACK with the state cookie,
/// COOKIE ECHO, COOKIE ACK; an INIT is answered in any state, so both sides may open at
/// once as WebRTC peers do: each COOKIE ECHO then finds the tags it expects, 5.2.4 case
/// D), 9.1 (ABORT) and 9.2 (SHUTDOWN, SHUTDOWN ACK, SHUTDOWN COMPLETE).
extension SctpAssociation {
    mutating func receivedInit(_ initiate: InitChunk, now: Instant) {
        let cookie = StateCookie(peer: initiate, localTag: localTag, localInitialTSN: localInitialTSN, created: now)
        let ack = InitChunk(initiateTag: localTag, advertisedWindow: configuration.receiveWindow,
                            outboundStreams: configuration.streams, inboundStreams: configuration.streams,
                            initialTSN: localInitialTSN, cookie: cookie.seal(secret: secret))
        send([.initAck(ack)], tag: initiate.initiateTag)
    }

    mutating func receivedInitAck(_ ack: InitChunk, now: Instant) {
        guard state == .cookieWait, let cookie = ack.cookie else { return }
        adopt(peer: ack)
        let echo = SctpChunk.cookieEcho(cookie: cookie)
        send([echo], tag: peerTag)
        state = .cookieEchoed
        t1 = (now + rto.rto, echo, 0, rto.rto)
    }

    mutating func receivedCookieEcho(_ bytes: [UInt8], now: Instant) {
        guard let cookie = StateCookie.open(bytes, secret: secret, now: now), cookie.localTag == localTag else {
            tally.badCookies += 1
            return
        }
        switch state {
        case .closed, .cookieWait, .cookieEchoed:
            adopt(peer: cookie.peer)
            send([.cookieAck], tag: peerTag)
            established()
        default:
            // A COOKIE ECHO repeated because our COOKIE ACK was lost (5.2.4 case D).
            if cookie.peer.initiateTag == peerTag { send([.cookieAck], tag: peerTag) }
        }
    }

    mutating func receivedCookieAck() {
        guard state == .cookieEchoed else { return }
        established()
    }

    private mutating func adopt(peer: InitChunk) {
        peerTag = peer.initiateTag
        received = ReceivedTSNs(initialTSN: peer.initialTSN)
        outbound.peerInitialized(window: Int(peer.advertisedWindow))
    }

    private mutating func established() {
        state = .established
        t1 = nil
        events.append(.associationUp)
        for id in channels.keys.sorted() where channels[id]?.open == true {
            if let channel = channels[id]?.channel { events.append(.channelOpen(channel)) }
        }
    }

    /// T1-init expiry (5.1 C, 6.3.3): resend INIT or COOKIE ECHO with the timer doubled.
    mutating func t1Expired(_ timer: (deadline: Instant, chunk: SctpChunk, tries: Int, interval: Duration), now: Instant) {
        guard timer.tries < configuration.maxInitRetransmits else {
            abort("no answer to \(state == .cookieWait ? "INIT" : "COOKIE ECHO") after \(timer.tries) retransmissions", now: now)
            return
        }
        send([timer.chunk], tag: state == .cookieWait ? 0 : peerTag)
        let interval = min(timer.interval * 2, configuration.rtoMax)
        t1 = (now + interval, timer.chunk, timer.tries + 1, interval)
    }

    /// 9.2: SHUTDOWN once nothing is outstanding (or SHUTDOWN ACK when the peer asked first).
    mutating func continueShutdown(now: Instant) {
        guard outbound.isEmpty, let received else { return }
        switch state {
        case .shutdownPending:
            send([.shutdown(cumulativeTSN: received.cumulative)], tag: peerTag)
            state = .shutdownSent
            t2 = (now + rto.rto, 0)
        case .shutdownReceived:
            send([.shutdownAck], tag: peerTag)
            state = .shutdownAckSent
            t2 = (now + rto.rto, 0)
        default: break
        }
    }

    mutating func receivedShutdown(cumulativeTSN: UInt32, now: Instant) {
        acknowledged(SackChunk(cumulativeTSN: cumulativeTSN, advertisedWindow: UInt32(outbound.peerWindow + outbound.flightSize),
                               gaps: [], duplicates: []), now: now)
        switch state {
        case .established, .shutdownPending:
            state = .shutdownReceived
            continueShutdown(now: now)
        case .shutdownSent:
            send([.shutdownAck], tag: peerTag)
            state = .shutdownAckSent
            t2 = (now + rto.rto, 0)
        default: break
        }
    }

    mutating func receivedShutdownAck() {
        guard state == .shutdownSent || state == .shutdownAckSent else { return }
        send([.shutdownComplete(reflected: false)], tag: peerTag)
        terminate(.shutdown)
    }

    mutating func t2Expired(_ timer: (deadline: Instant, tries: Int), now: Instant) {
        guard timer.tries < configuration.maxRetransmits, let received else {
            abort("no answer to SHUTDOWN", now: now)
            return
        }
        send([state == .shutdownSent ? .shutdown(cumulativeTSN: received.cumulative) : .shutdownAck], tag: peerTag)
        rto.backOff()
        t2 = (now + rto.rto, timer.tries + 1)
    }
}
