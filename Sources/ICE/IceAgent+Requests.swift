import RTCBase
import STUN

/// Incoming STUN (RFC 8445 7.3): Binding requests from the remote agent and answers to
/// this agent's own requests.
extension IceAgent {
    /// Handles one datagram the driver identified as STUN or TURN ChannelData (RFC 7983:
    /// first byte 0-3 or 64-79), received from `source` on the local socket bound to
    /// `local`. Returns application data a peer sent through a TURN relay, for the driver
    /// to demultiplex again. Malformed or unauthenticated input is counted in `stats.dropped`.
    @discardableResult
    public mutating func handle(_ bytes: [UInt8], from source: SocketAddress, to local: SocketAddress, now: Instant) -> [UInt8]? {
        lastNow = max(lastNow, now)
        if let turn = turnClients.firstIndex(where: { $0.server == source && $0.local == local }), !answersOwnRequest(bytes) {
            let data = handleFromTurn(turn, bytes, from: source, now: now)
            updateState()
            return data
        }
        handleStun(bytes, from: source, to: local, now: now)
        updateState()
        return nil
    }

    /// Whether `bytes` answer one of the agent's own transactions (a server-reflexive
    /// request to a server that is also the TURN server).
    private func answersOwnRequest(_ bytes: [UInt8]) -> Bool {
        guard StunMessage.looksLikeStun(bytes), let id = TransactionID(bytes: bytes[8..<20]) else { return false }
        return transactions.entry(id) != nil
    }

    /// One STUN message from `source`, received on `local` (a base or a relayed address).
    mutating func handleStun(_ bytes: [UInt8], from source: SocketAddress, to local: SocketAddress, now: Instant) {
        guard let message = try? StunMessage.decode(bytes) else {
            stats.dropped += 1
            return
        }
        switch message.messageClass {
        case .request where message.method == .binding:
            handleRequest(message, from: source, to: local, now: now)
        case .successResponse, .errorResponse:
            handleResponse(message, from: source, to: local, now: now)
        case .request, .indication:
            // Binding indications are keepalives (RFC 8445 11); other methods are not ICE's.
            break
        }
    }

    /// RFC 8445 7.3: authenticate, resolve role conflicts, answer, learn peer-reflexive
    /// candidates, trigger a check and honour USE-CANDIDATE.
    private mutating func handleRequest(_ request: StunMessage, from source: SocketAddress, to local: SocketAddress, now: Instant) {
        // Relay-only: checks reaching a host address directly are not answered.
        if options.relayOnly, !turnClients.contains(where: { $0.relayedAddress == local }) {
            stats.dropped += 1
            return
        }
        let localKey = StunKey.shortTerm(password: localCredentials.pwd)
        // RFC 8489 9.1.3: 400 without USERNAME or MESSAGE-INTEGRITY, 401 when they do not check out.
        guard let username = request.username, request.hasIntegrity else {
            reply(error: .badRequest, to: request, from: source, to: local, key: nil)
            stats.dropped += 1
            return
        }
        guard username.hasPrefix(localCredentials.ufrag + ":"), request.verifyIntegrity(key: localKey) else {
            reply(error: .unauthenticated, to: request, from: source, to: local, key: nil)
            stats.dropped += 1
            return
        }
        let unknown = request.unknownComprehensionRequired
        guard unknown.isEmpty else {
            reply(error: .unknownAttribute, extra: [.unknownAttributes(unknown)], to: request, from: source, to: local, key: localKey)
            return
        }
        stats.requestsReceived += 1
        guard resolveRoleConflict(request, from: source, to: local, key: localKey) else { return }

        let response = request.response(attributes: [.xorMappedAddress(source)])
        emit(Transmit(destination: source, source: local, payload: response.encode(integrityKey: localKey, fingerprint: true)))

        guard let localIndex = localCandidates.firstIndex(where: { $0.base == local && ($0.type == .host || $0.type == .relay) })
        else { return }
        let remoteIndex = remoteCandidateIndex(for: source, priority: request.priority)
        guard let pair = addPair(local: localIndex, remote: remoteIndex) else { return }
        triggerCheck(pair: pair)
        if request.useCandidate && role == .controlled {
            if pairs[pair].valid {
                pairs[pair].nominated = true
                updateSelection(now: now)
            } else {
                pairs[pair].nominateOnSuccess = true
            }
        }
    }

    /// RFC 8445 7.3.1.1. Returns false when this agent answered 487 and the request stops here.
    private mutating func resolveRoleConflict(_ request: StunMessage, from source: SocketAddress, to local: SocketAddress,
                                              key: [UInt8]) -> Bool {
        if role == .controlling, let theirs = request.iceControlling {
            if tieBreaker >= theirs {
                reply(error: .roleConflict, to: request, from: source, to: local, key: key)
                return false
            }
            switchRole(to: .controlled)
        } else if role == .controlled, let theirs = request.iceControlled {
            if tieBreaker >= theirs {
                switchRole(to: .controlling)
            } else {
                reply(error: .roleConflict, to: request, from: source, to: local, key: key)
                return false
            }
        }
        return true
    }

    /// The remote candidate at `address`, or a new peer-reflexive one with the request's
    /// PRIORITY (RFC 8445 7.3.1.3).
    private mutating func remoteCandidateIndex(for address: SocketAddress, priority: UInt32?) -> Int {
        if let known = remoteCandidates.firstIndex(where: { $0.address == address }) { return known }
        let candidate = IceCandidate(foundation: "prflx\(remoteCandidates.count)",
                                     priority: priority ?? IceCandidate.priority(type: .prflx),
                                     address: address, type: .prflx)
        remoteCandidates.append(candidate)
        return remoteCandidates.count - 1
    }

    /// Triggered check (RFC 8445 7.3.1.4): a pair that has not succeeded goes to Waiting
    /// and to the triggered-check queue; a check in progress is cancelled (its answer is
    /// still welcome) and checked again. A cancelled nomination is carried by the new
    /// check: else, its answer lost, the controlling agent would wait out the whole
    /// transaction (39.5 s) before nominating again, with the other side already done.
    private mutating func triggerCheck(pair index: Int) {
        switch pairs[index].state {
        case .succeeded:
            return
        case .inProgress:
            let current = generation
            let stopped = transactions.stopRetransmitting { purpose in
                if case .check(let pair, _, _, let checkGeneration) = purpose { pair == index && checkGeneration == current } else { false }
            }
            if stopped.contains(where: { if case .check(_, true, _, _) = $0 { true } else { false } }) {
                nominationPending.insert(index)
            }
            pairs[index].state = .waiting
            if !triggered.contains(index) { triggered.append(index) }
        case .frozen, .waiting, .failed:
            pairs[index].state = .waiting
            if !triggered.contains(index) { triggered.append(index) }
        }
    }

    private mutating func reply(error: StunErrorCode, extra: [StunAttribute] = [], to request: StunMessage, from source: SocketAddress,
                                to local: SocketAddress, key: [UInt8]?) {
        let response = request.response(.errorResponse, attributes: [.errorCode(error)] + extra)
        emit(Transmit(destination: source, source: local, payload: response.encode(integrityKey: key, fingerprint: true)))
    }
}
