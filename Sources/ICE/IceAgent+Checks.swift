import RTCBase
import STUN

/// Connectivity checks (RFC 8445 6.1.4, 7.2), their answers (7.2.5) and nomination (8.1),
/// with libwebrtc's variations under `IceProfile.libwebrtc`.
extension IceAgent {
    /// Retransmits and times out requests, sends the next paced check, nominates, runs
    /// consent freshness and updates the connection state.
    public mutating func handleTimeout(now: Instant) {
        lastNow = max(lastNow, now)
        let (retransmit, timedOut) = transactions.expire(now: now)
        for entry in retransmit {
            switch entry.purpose {
            case .check: stats.checksSent += 1
            case .consent: stats.consentRequestsSent += 1
            case .gather: break
            }
            emit(entry.transmit)
        }
        for purpose in timedOut {
            guard case .check(let pair, let nominate, _, let checkGeneration) = purpose, checkGeneration == generation else { continue }
            switch options.profile {
            case .rfc8445:
                pairs[pair].state = .failed
                // A nomination that got no answer at all is tried again.
                if nominate && !options.aggressiveNomination { nominationStarted = false }
            case .libwebrtc:
                // The oldest unanswered check of a pair nothing answered since: the pair is dead.
                guard !pairs[pair].valid else { continue }
                pairs[pair].state = .failed
                let current = generation
                transactions.cancel { if case .check(pair, _, _, current) = $0 { true } else { false } }
            }
        }
        startNominationIfReady(now: now)
        triggered = triggered.filter { needsTriggeredCheck($0) }
        if remoteCredentials != nil, lastCheckAt.map({ now >= $0 + options.ta }) ?? true, let next = nextPairToCheck() {
            if triggered.first == next { triggered.removeFirst() }
            sendCheck(pair: next, now: now)
        }
        runConsent(now: now)
        runTurnTimers(now: now)
        updateState()
    }

    /// Whether a paced check is waiting for its turn (6.1.4.2). Mutating, as the helpers it
    /// calls: a non-mutating method gets the agent by value, and Swift copied all 840 bytes
    /// of it (and retained what they hold) for each such call after every datagram.
    mutating func hasCheckToSend() -> Bool {
        guard case .some = remoteCredentials else { return false }
        return nextPairToCheck() != nil
    }

    /// The triggered-check queue first, then the highest-priority Waiting pair, then a
    /// Frozen pair whose foundation has nothing Waiting or In-Progress (6.1.4.2); under
    /// libwebrtc then a pair to ping again.
    ///
    /// Asked after every datagram a peer handles (through `pollTimeoutInPlace()`), so it
    /// allocates nothing (the foundations in use are looked up only when a pair is Frozen),
    /// its loops take no closure over the agent, which Swift may copy whole to capture, and
    /// it reads the agent in place (`hasCheckToSend()`).
    mutating func nextPairToCheck() -> Int? {
        for index in triggered where needsTriggeredCheck(index) { return index }
        var best: Int?, anyFrozen = false
        for index in pairs.indices {
            anyFrozen = anyFrozen || pairs[index].state == .frozen
            guard pairs[index].state == .waiting else { continue }
            if let current = best, pairs[index].priority <= pairs[current].priority { continue }
            best = index
        }
        if let best { return best }
        if anyFrozen {
            let busy = Set(pairs.filter { $0.state == .waiting || $0.state == .inProgress }.map(\.foundation))
            let frozen = pairs.indices.filter { pairs[$0].state == .frozen && !busy.contains(pairs[$0].foundation) }
                .max { pairs[$0].priority < pairs[$1].priority }
            if let frozen { return frozen }
        }
        return options.profile == .libwebrtc ? pairToPingAgain() : nil
    }

    /// libwebrtc repeats a check by pinging the pair again at the next slot, not by STUN
    /// retransmission: while no pair is selected (or, after an ICE restart, none of the new
    /// ones), the unanswered pair pinged least recently; once one is, the controlling agent
    /// pings the selected pair until its nomination is answered.
    mutating func pairToPingAgain() -> Int? {
        if let index = selected?.pair { return role == .controlling && !pairs[index].nominated ? index : nil }
        return pairs.indices.filter { pairs[$0].state == .inProgress }
            .min { (pairs[$0].lastCheckSent ?? .zero) < (pairs[$1].lastCheckSent ?? .zero) }
    }

    /// libwebrtc's semi-aggressive nomination by the controlling agent: USE-CANDIDATE on
    /// every check while no pair is selected, then on checks of the selected pair or of a
    /// better one; against an ice-lite agent only on the selected pair's checks.
    func nominatesSemiAggressively(_ index: Int) -> Bool {
        guard options.profile == .libwebrtc else { return false }
        guard let chosen = selected?.pair else { return !remoteIsLite }
        return index == chosen || (!remoteIsLite && pairs[index].priority > pairs[chosen].priority)
    }

    /// A queued triggered check is moot once the pair succeeded (an answer to a cancelled
    /// check arrived meanwhile), unless it is to carry a nomination not yet answered.
    func needsTriggeredCheck(_ index: Int) -> Bool {
        pairs[index].state != .succeeded || (nominationPending.contains(index) && !pairs[index].nominated)
    }

    /// Sends a Binding request on `pair` (RFC 8445 7.2.2): USERNAME, PRIORITY of a
    /// peer-reflexive candidate, the role attribute, USE-CANDIDATE when nominating,
    /// MESSAGE-INTEGRITY with the remote password, FINGERPRINT.
    mutating func sendCheck(pair index: Int, now: Instant) {
        guard let remoteCredentials else { return }
        let local = localCandidates[pairs[index].local]
        let remote = remoteCandidates[pairs[index].remote]
        let nominate = role == .controlling
            && (options.aggressiveNomination || nominationPending.remove(index) != nil || nominatesSemiAggressively(index))
        let id = TransactionID(using: &generator)
        var request = StunMessage(method: .binding, messageClass: .request, transactionID: id, attributes: [
            .username("\(remoteCredentials.ufrag):\(localCredentials.ufrag)"),
            .priority(IceCandidate.priority(type: .prflx, localPreference: UInt16(truncatingIfNeeded: local.priority >> 8))),
            role == .controlling ? .iceControlling(tieBreaker) : .iceControlled(tieBreaker),
        ])
        if nominate { request.attributes.append(.useCandidate) }
        let key = StunKey.shortTerm(password: remoteCredentials.pwd)
        let transmit = Transmit(destination: remote.address, source: local.base, payload: request.encode(integrityKey: key, fingerprint: true))
        let purpose = Purpose.check(pair: index, nominate: nominate, asControlling: role == .controlling, generation: generation)
        transactions.start(id, purpose: purpose, transmit: transmit, now: now,
                           onceFor: options.profile == .libwebrtc ? options.unansweredPairTimeout : nil)
        emit(transmit)
        // libwebrtc pings a valid pair again (to nominate it) without making it unusable.
        if options.profile == .rfc8445 || !pairs[index].valid { pairs[index].state = .inProgress }
        pairs[index].lastCheckSent = now
        pairs[index].checksSent += 1
        if selected?.pair == index { pinged(now: now) }
        stats.checksSent += 1
        lastCheckAt = now
        if state == .new { setState(.checking, .checksStarted) }
    }

    /// Handles the answer to one of this agent's requests.
    mutating func handleResponse(_ response: StunMessage, from source: SocketAddress, to local: SocketAddress, now: Instant) {
        guard let entry = transactions.entry(response.transactionID) else {
            stats.dropped += 1
            return
        }
        switch entry.purpose {
        case .gather(let base, let server):
            _ = transactions.complete(response.transactionID)
            learnServerReflexive(response, base: base, server: server)
        case .consent:
            guard let selected, response.verifyIntegrity(key: selected.key) else {
                stats.dropped += 1
                return
            }
            _ = transactions.complete(response.transactionID)
            guard response.messageClass == .successResponse else { return }
            stats.responsesReceived += 1
            if entry.sends == 1 { recordRtt(now - entry.firstSent, pair: selected.pair) }
            consentResponded(now: now)
        case .check(let pair, let nominate, let asControlling, let checkGeneration):
            guard let remoteCredentials, response.verifyIntegrity(key: StunKey.shortTerm(password: remoteCredentials.pwd))
            else {
                stats.dropped += 1
                return
            }
            _ = transactions.complete(response.transactionID)
            guard checkGeneration == generation else { return }
            checkAnswered(pair: pair, nominated: nominate, asControlling: asControlling, response: response, entry: entry,
                          from: source, to: local, now: now)
        }
    }

    /// 7.2.5.1 to 7.2.5.3: role conflict, symmetric addresses, valid pair, nomination.
    private mutating func checkAnswered(pair index: Int, nominated: Bool, asControlling: Bool, response: StunMessage,
                                        entry: StunTransactions<Purpose>.Entry, from source: SocketAddress, to local: SocketAddress,
                                        now: Instant) {
        if response.messageClass == .errorResponse {
            if response.errorCode?.code == StunErrorCode.roleConflict.code {
                switchRole(to: asControlling ? .controlled : .controlling)
                pairs[index].state = .waiting
                if !triggered.contains(index) { triggered.append(index) }
            } else {
                pairs[index].state = .failed
            }
            return
        }
        guard source == entry.transmit.destination, local == entry.transmit.source else {
            pairs[index].state = .failed
            return
        }
        stats.responsesReceived += 1
        let mapped = response.mappedAddress
        pairs[index].mappedType = localCandidates.first { $0.address == mapped }?.type ?? .prflx
        pairs[index].state = .succeeded
        pairs[index].valid = true
        pairs[index].answers += 1
        if selected?.pair == index { pingAnswered() }
        if entry.sends == 1 { recordRtt(now - entry.firstSent, pair: index) }
        for other in pairs.indices where pairs[other].state == .frozen && pairs[other].foundation == pairs[index].foundation {
            pairs[other].state = .waiting
        }
        if firstValidAt == nil { firstValidAt = now }
        if nominated || (role == .controlled && pairs[index].nominateOnSuccess) { pairs[index].nominated = true }
        updateSelection(now: now)
        startNominationIfReady(now: now)
    }

    /// Regular nomination (RFC 8445 8.1.1): once no higher-priority pair can still
    /// succeed, or `nominationDelay` after the first valid pair, the controlling agent
    /// checks the best valid pair again with USE-CANDIDATE.
    mutating func startNominationIfReady(now: Instant) {
        guard options.profile == .rfc8445, role == .controlling, !options.aggressiveNomination, !nominationStarted,
              let firstValidAt
        else { return }
        guard let best = pairs.indices.filter({ pairs[$0].valid }).max(by: { pairs[$0].priority < pairs[$1].priority }) else { return }
        let pending = pairs.contains { pair in
            pair.priority > pairs[best].priority && [.frozen, .waiting, .inProgress].contains(pair.state)
        }
        guard !pending || now >= firstValidAt + options.nominationDelay else { return }
        nominationStarted = true
        nominationPending.insert(best)
        triggered.insert(best, at: 0)
    }

    /// Selects the highest-priority nominated valid pair (RFC 8445 8.1.1) and reports it;
    /// under libwebrtc the best valid pair, nominated ones first (data may flow on a valid
    /// pair, RFC 8445 7.2.5.3.2).
    mutating func updateSelection(now: Instant) {
        guard let remoteCredentials,
              let best = pairs.indices.filter({ pairs[$0].valid && (pairs[$0].nominated || options.profile == .libwebrtc) })
                .max(by: { (pairs[$0].nominated ? 1 : 0, pairs[$0].priority) < (pairs[$1].nominated ? 1 : 0, pairs[$1].priority) })
        else { return }
        let wasNominated = selected?.pair == best && selected?.nominated == true
        if selected?.pair != best { select(best, remoteCredentials: remoteCredentials, now: now) }
        guard pairs[best].nominated, !wasNominated else { return }
        selected?.nominated = true
        // 8.1.2: with a nominated pair, Waiting and Frozen pairs are not checked any more.
        for index in pairs.indices where pairs[index].state == .waiting || pairs[index].state == .frozen {
            pairs[index].state = .failed
        }
    }

    /// Makes pair `best` the one media goes over and reports it.
    private mutating func select(_ best: Int, remoteCredentials: IceCredentials, now: Instant) {
        let pair = pairs[best]
        let local = localCandidates[pair.local]
        let remote = remoteCandidates[pair.remote]
        selected = SelectedPath(pair: best, local: local, remote: remote,
                                username: "\(remoteCredentials.ufrag):\(localCredentials.ufrag)",
                                key: StunKey.shortTerm(password: remoteCredentials.pwd),
                                lastResponse: now, nextConsent: now, pings: pair.checksSent, answers: pair.answers,
                                lastPing: pair.lastCheckSent ?? now)
        scheduleNextPing()
        stats.selectedLocalType = pair.mappedType ?? local.type
        stats.selectedRemoteType = remote.type
        stats.selectedPairRtt = pair.rtt
        events.append(.selectedPairChanged(local: local, remote: remote))
        if local.type == .relay { turnChannel(relay: local.address, peer: remote.address, now: now) }
        if state != .completed { setState(.connected, pair.nominated ? .pairNominated : .pairValid) }
    }

    mutating func recordRtt(_ rtt: Duration, pair: Int?) {
        guard let pair, pairs.indices.contains(pair) else { return }
        pairs[pair].rtt = rtt
        if selected?.pair == pair { stats.selectedPairRtt = rtt }
    }

    /// Connected becomes completed when checks are over (RFC 8445 8.1.2); failed when every
    /// pair failed and no more candidates will come.
    mutating func updateState() {
        if state == .connected, selected?.pair != nil, selected?.nominated == true, checksFinished {
            setState(.completed, .checksFinished)
        } else if selected == nil, checksFinished, !pairs.isEmpty, pairs.allSatisfy({ $0.state == .failed }), state == .checking {
            setState(.failed, .allPairsFailed)
        }
    }

    /// No check is running or waiting, and the remote will not add candidates.
    var checksFinished: Bool {
        let busy = triggered.contains { needsTriggeredCheck($0) } || pairs.contains { [.frozen, .waiting, .inProgress].contains($0.state) }
        return !busy && (remoteEndOfCandidates || remoteIsLite)
    }

    /// A server-reflexive candidate from a STUN server's answer (RFC 8445 5.1.1.2); dropped
    /// when it equals the base (no NAT) or is already known.
    private mutating func learnServerReflexive(_ response: StunMessage, base: SocketAddress, server: SocketAddress) {
        guard response.messageClass == .successResponse, let mapped = response.mappedAddress, mapped != base,
              !localCandidates.contains(where: { $0.address == mapped })
        else { return }
        let host = localCandidates.first { $0.base == base && $0.type == .host }
        let preference = UInt16(truncatingIfNeeded: (host?.priority ?? 0xFFFF00) >> 8)
        addLocal(IceCandidate(foundation: IceCandidate.foundation(type: .srflx, base: base, server: server),
                              priority: IceCandidate.priority(type: .srflx, localPreference: preference),
                              address: mapped, type: .srflx, base: base, relatedAddress: base))
    }
}
