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
            // Retransmitted by the usual STUN rules; checks may overlap, and an answer to
            // any of them renews consent (and ends the others).
            transactions.start(id, purpose: .consent, transmit: transmit, now: now)
            emit(transmit)
            stats.consentRequestsSent += 1
            path.nextConsent = now + consentDelay()
        }
        selected = path
    }

    /// An authenticated answer to a consent check renews consent for 30 s.
    mutating func consentResponded(now: Instant) {
        guard selected != nil else { return }
        transactions.cancel { if case .consent = $0 { true } else { false } }
        selected?.lastResponse = now
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
