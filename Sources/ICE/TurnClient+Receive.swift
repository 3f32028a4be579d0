import RTCBase
import STUN

/// Datagrams from the TURN server and the client's timers.
extension TurnClient {
    /// Handles a datagram from the server. Returns what a peer sent through the relay
    /// (ChannelData, RFC 8656 12.6, or a Data indication, 11.4); nil for everything else.
    /// Malformed input is dropped.
    public mutating func handle(_ bytes: [UInt8], from source: SocketAddress, now: Instant) -> (peer: SocketAddress, payload: [UInt8])? {
        lastNow = max(lastNow, now)
        guard source == server else { return nil }
        if ChannelData.looksLikeChannelData(bytes) {
            guard let frame = try? ChannelData.decode(bytes),
                  let peer = channels.first(where: { $0.value.number == frame.channel && $0.value.bound })?.key
            else { return nil }
            return (peer, frame.payload)
        }
        guard let message = try? StunMessage.decode(bytes) else { return nil }
        switch message.messageClass {
        case .indication where message.method == .data:
            guard let peer = message.xorPeerAddress, let data = message.data else { return nil }
            return (peer, data)
        case .successResponse, .errorResponse:
            handleResponse(message, now: now)
        case .request, .indication:
            break
        }
        return nil
    }

    /// Retransmits and times out requests; refreshes the allocation, permissions and
    /// channels when due.
    public mutating func handleTimeout(now: Instant) {
        lastNow = max(lastNow, now)
        let (retransmit, timedOut) = transactions.expire(now: now)
        transmits.append(contentsOf: retransmit.map(\.transmit))
        for purpose in timedOut { fail(purpose, error: nil, reason: "no answer from the TURN server") }
        if let refreshAt, now >= refreshAt {
            self.refreshAt = nil
            send(.refresh(lifetime: 600), now: now)
        }
        for (peerIP, due) in permissions where now >= due {
            permissions[peerIP] = now + Self.permissionRefresh
            send(.permission(peerIP), now: now)
        }
        for (peer, channel) in channels {
            guard let due = channel.refreshAt, now >= due else { continue }
            channels[peer]?.refreshAt = now + Self.channelRefresh
            send(.channelBind(peer, channel.number), now: now)
        }
    }

    private mutating func handleResponse(_ response: StunMessage, now: Instant) {
        guard let entry = transactions.entry(response.transactionID) else { return }
        if response.messageClass == .errorResponse {
            _ = transactions.complete(response.transactionID)
            let wasAuthenticated = (try? StunMessage.decode(entry.transmit.payload))?.hasIntegrity ?? true
            handleError(response, purpose: entry.purpose, wasAuthenticated: wasAuthenticated, now: now)
            return
        }
        // Success responses must carry MESSAGE-INTEGRITY with our key (RFC 8489 9.2.5).
        guard let key, response.verifyIntegrity(key: key) else { return }
        _ = transactions.complete(response.transactionID)
        switch entry.purpose {
        case .allocate:
            guard let relayed = response.xorRelayedAddress else {
                fail(.allocate, error: nil, reason: "Allocate success without XOR-RELAYED-ADDRESS")
                return
            }
            let lifetime = response.lifetime ?? 600
            relayedAddress = relayed
            mappedAddress = response.mappedAddress
            state = .allocated
            refreshAt = now + Self.refreshDelay(lifetime: lifetime)
            events.append(.allocated(relayed: relayed, mapped: mappedAddress, lifetime: lifetime))
        case .refresh(let lifetime):
            let granted = response.lifetime ?? lifetime
            if lifetime == 0 {
                endAllocation(.deallocated)
                events.append(.deallocated)
            } else {
                refreshAt = now + Self.refreshDelay(lifetime: granted)
                events.append(.refreshed(lifetime: granted))
            }
        case .permission(let peer):
            events.append(.permissionCreated(peer))
        case .channelBind(let peer, let number):
            channels[peer] = Channel(number: number, bound: true, refreshAt: now + Self.channelRefresh)
            events.append(.channelBound(peer: peer, channel: number))
        }
    }

    /// 401 to a request sent without credentials: answer the challenge with long-term
    /// credentials (RFC 8489 9.2.3.1); 438: take the new nonce and retry (9.2.5); anything
    /// else (a 401 despite credentials included) fails the request.
    private mutating func handleError(_ response: StunMessage, purpose: Purpose, wasAuthenticated: Bool, now: Instant) {
        let code = response.errorCode?.code
        if code == StunErrorCode.unauthenticated.code, !wasAuthenticated, let realm = response.realm, let nonce = response.nonce {
            if key == nil {
                self.realm = realm
                self.nonce = nonce
                key = StunKey.longTerm(username: username, realm: realm, password: password)
            }
            send(purpose, now: now)
        } else if code == StunErrorCode.staleNonce.code, let nonce = response.nonce {
            self.nonce = nonce
            if let realm = response.realm, realm != self.realm {
                self.realm = realm
                key = StunKey.longTerm(username: username, realm: realm, password: password)
            }
            send(purpose, now: now)
        } else {
            fail(purpose, error: response.errorCode, reason: "server refused: \(response.errorCode?.description ?? "no ERROR-CODE")")
        }
    }

    private mutating func fail(_ purpose: Purpose, error: StunErrorCode?, reason: String) {
        switch purpose {
        case .allocate, .refresh:
            // A refused Refresh of lifetime 0 still leaves no allocation behind.
            endAllocation(.failed(reason))
            events.append(.failed(reason))
        case .permission:
            events.append(.requestFailed(method: .createPermission, error: error))
        case .channelBind(let peer, _):
            channels[peer] = nil
            events.append(.requestFailed(method: .channelBind, error: error))
        }
    }

    private mutating func endAllocation(_ newState: TurnState) {
        state = newState
        refreshAt = nil
        permissions = [:]
        channels = [:]
        transactions.cancel { _ in true }
    }

    /// Refresh a minute before the lifetime ends, or halfway through a short one.
    static func refreshDelay(lifetime: UInt32) -> Duration {
        lifetime > 120 ? .seconds(Int(lifetime) - 60) : .seconds(Int(lifetime)) / 2
    }
}
