import RTCBase
import STUN

/// Consent freshness (RFC 7675) on the selected pair.
extension IceAgent {
    /// Sends a consent check when one is due; reports `disconnected` after
    /// `disconnectedAfter` and `failed` after `consentTimeout` without a response (5.1).
    mutating func runConsent(now: Instant) {
        guard var path = selected, state != .failed else { return }
        let silence = now - path.lastResponse
        if silence >= options.consentTimeout {
            selected = nil
            transactions.cancel { if case .consent = $0 { true } else { false } }
            setState(.failed, .consentExpired)
            return
        }
        if silence >= options.disconnectedAfter, !path.disconnected {
            path.disconnected = true
            setState(.disconnected, .consentMissing)
        }
        if now >= path.nextConsent {
            let id = TransactionID(using: &generator)
            let request = StunMessage(method: .binding, messageClass: .request, transactionID: id, attributes: [
                .username(path.username),
                .priority(IceCandidate.priority(type: .prflx, localPreference: UInt16(truncatingIfNeeded: path.local.priority >> 8))),
                role == .controlling ? .iceControlling(tieBreaker) : .iceControlled(tieBreaker),
            ])
            let transmit = Transmit(destination: path.remote.address, source: path.local.base,
                                    payload: request.encode(integrityKey: path.key, fingerprint: true))
            // rfc8445: retransmitted by the usual STUN rules; libwebrtc pings again instead.
            // Checks may overlap, and an answer to any of them renews consent (and ends the others).
            transactions.start(id, purpose: .consent, transmit: transmit, now: now,
                               onceFor: options.profile == .libwebrtc ? options.unansweredPairTimeout : nil)
            emit(transmit)
            stats.consentRequestsSent += 1
            selected = path
            pinged(now: now)
            return
        }
        selected = path
    }

    /// A check or consent check went out on the selected pair.
    mutating func pinged(now: Instant) {
        selected?.pings += 1
        selected?.lastPing = now
        scheduleNextPing(awaitingAnswer: true)
    }

    /// A check or consent check on the selected pair was answered.
    mutating func pingAnswered() {
        selected?.answers += 1
        if options.profile == .libwebrtc { scheduleNextPing(awaitingAnswer: false) }
    }

    /// When the selected pair is checked next, from its last ping.
    /// - `rfc8445`: every `consentInterval` +- 20 % (RFC 7675 5.1).
    /// - `libwebrtc`: as its P2PTransportChannel pings the selected connection: at the weak
    ///   ping interval (`ta`, 48 ms) until three pings went out on the pair, then every
    ///   900 ms until the pair is stable (more than four answers, and no ping waiting for
    ///   its answer), then every 2.5 s. So a remote whose own check was lost gets another of
    ///   ours to answer with a triggered check (RFC 8445 7.3.1.4) within 48 ms, not 5 s.
    mutating func scheduleNextPing(awaitingAnswer: Bool = false) {
        guard let path = selected else { return }
        let interval: Duration
        switch options.profile {
        case .rfc8445:
            interval = consentDelay()
        case .libwebrtc:
            if path.pings < 3 {
                interval = options.ta
            } else {
                interval = path.answers > 4 && !awaitingAnswer ? .milliseconds(2500) : .milliseconds(900)
            }
        }
        selected?.nextConsent = path.lastPing + interval
    }

    /// An authenticated answer to a consent check renews consent for 30 s.
    mutating func consentResponded(now: Instant) {
        guard selected != nil else { return }
        transactions.cancel { if case .consent = $0 { true } else { false } }
        selected?.lastResponse = now
        pingAnswered()
        if selected?.disconnected == true {
            selected?.disconnected = false
            setState(selected?.pair != nil && checksFinished ? .completed : .connected, .consentRestored)
        }
    }

    /// The consent interval randomized to +-20 % (RFC 7675 5.1) with the seeded generator.
    mutating func consentDelay() -> Duration {
        let factor = 0.8 + 0.4 * generator.nextUnit()
        return .nanoseconds(Int64(Double(options.consentInterval.nanoseconds) * factor))
    }
}
