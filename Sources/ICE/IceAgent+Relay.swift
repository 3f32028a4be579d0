import RTCBase
import STUN

/// Relayed candidates through TURN clients (RFC 8445 5.1.1.2, RFC 8656) and the
/// application data path over the selected pair.
extension IceAgent {
    /// Allocates a relayed address on the TURN server `server` from the local socket
    /// `base`; the relayed candidate arrives as `.localCandidate` once allocated.
    public mutating func addTurnServer(_ server: SocketAddress, username: String, password: String, from base: SocketAddress,
                                       now: Instant) {
        lastNow = max(lastNow, now)
        var client = TurnClient(server: server, local: base, username: username, password: password,
                                seed: options.seed &+ UInt64(turnClients.count) &+ 0x7E, rto: options.rto,
                                maxTransmissions: options.maxTransmissions)
        client.allocate(now: now)
        turnClients.append(client)
        drainTurn(turnClients.count - 1)
    }

    /// Sends application data (DTLS, SRTP) over the selected pair, through the TURN
    /// server when the local candidate is relayed. False when no pair is selected.
    public mutating func send(_ payload: [UInt8]) -> Bool {
        guard let selected else { return false }
        emit(Transmit(destination: selected.remote.address, source: selected.local.base, payload: payload))
        return true
    }

    /// Ends the TURN allocations (Refresh with lifetime 0, RFC 8656 7.3).
    public mutating func close(now: Instant) {
        lastNow = max(lastNow, now)
        for index in turnClients.indices {
            turnClients[index].deallocate(now: now)
            drainTurn(index)
        }
    }

    /// Queues a datagram, wrapped for the TURN server when it leaves from a relayed address.
    mutating func emit(_ transmit: Transmit) {
        guard let index = turnClients.firstIndex(where: { $0.relayedAddress != nil && $0.relayedAddress == transmit.source }) else {
            transmits.append(transmit)
            return
        }
        if let wrapped = turnClients[index].wrap(transmit.payload, for: transmit.destination) { transmits.append(wrapped) }
    }

    /// A datagram from a TURN server: STUN from a peer goes to the agent as if received
    /// on the relayed address; anything else is the application's, returned.
    mutating func handleFromTurn(_ index: Int, _ bytes: [UInt8], from server: SocketAddress, now: Instant) -> [UInt8]? {
        let relayed = turnClients[index].handle(bytes, from: server, now: now)
        drainTurn(index)
        guard let (peer, payload) = relayed, let relayedAddress = turnClients[index].relayedAddress else { return nil }
        if StunMessage.looksLikeStun(payload) {
            handleStun(payload, from: peer, to: relayedAddress, now: now)
            return nil
        }
        return payload
    }

    mutating func runTurnTimers(now: Instant) {
        for index in turnClients.indices {
            if let due = turnClients[index].pollTimeout(), due <= now { turnClients[index].handleTimeout(now: now) }
            drainTurn(index)
        }
    }

    /// A permission for the remote candidate of a new relayed pair, so the server lets
    /// its checks through (RFC 8656 9).
    mutating func turnPermission(relay: SocketAddress, peer: SocketAddress) {
        guard let index = turnClients.firstIndex(where: { $0.relayedAddress == relay }) else { return }
        turnClients[index].createPermission(for: peer, now: lastNow)
        drainTurn(index)
    }

    /// A channel for the selected relayed pair: data then goes as ChannelData (RFC 8656 12).
    mutating func turnChannel(relay: SocketAddress, peer: SocketAddress, now: Instant) {
        guard let index = turnClients.firstIndex(where: { $0.relayedAddress == relay }) else { return }
        turnClients[index].bindChannel(to: peer, now: now)
        drainTurn(index)
    }

    /// Moves a TURN client's datagrams to the agent's queue and turns its events into
    /// relayed candidates or failures.
    mutating func drainTurn(_ index: Int) {
        while let transmit = turnClients[index].pollTransmit() { transmits.append(transmit) }
        while let event = turnClients[index].pollEvent() {
            switch event {
            case .allocated(let relayed, let mapped, _):
                let client = turnClients[index]
                let preference = UInt16(clamping: 65535 - index)
                addLocal(IceCandidate(foundation: IceCandidate.foundation(type: .relay, base: client.local, server: client.server),
                                      priority: IceCandidate.priority(type: .relay, localPreference: preference),
                                      address: relayed, type: .relay, relatedAddress: mapped))
            case .failed(let reason):
                events.append(.turnFailed(server: turnClients[index].server, reason: reason))
                if options.relayOnly, !turnClients.contains(where: { $0.state == .allocated }) {
                    selected = nil
                    setState(.failed, .relayUnavailable)
                }
            case .refreshed, .permissionCreated, .channelBound, .requestFailed, .deallocated:
                break
            }
        }
    }
}
