import RTCBase
import STUN

/// A small TURN server for tests (RFC 8656 over UDP): long-term credentials with a 401
/// challenge, a nonce that can go stale, allocations, permissions, channels, Send and
/// Data indications and ChannelData. It logs what it did, with times, for assertions.
struct ScriptedTurnServer: Endpoint {
    struct Allocation {
        var relayed: SocketAddress
        var permissions: Set<SocketAddress> = []
        var channels: [UInt16: SocketAddress] = [:]
    }

    let address: SocketAddress
    let realm = "test"
    let users = ["test": "test"]
    var nonce = "nonce-1"
    /// From this time on, the nonce changes (once) and older requests get 438.
    var rotateNonceAt: Instant?
    var nextRelayPort: UInt16 = 49160
    var allocations: [SocketAddress: Allocation] = [:]
    var log: [(at: Instant, entry: String)] = []
    var queue: [Transmit] = []

    init(address: SocketAddress) { self.address = address }

    /// Addresses the network must route to this server: its own and the relays it may hand out.
    var relayAddresses: [SocketAddress] { (49160..<49170).map { address.with(port: $0) } }

    mutating func handle(_ bytes: [UInt8], from source: SocketAddress, to local: SocketAddress, now: Instant) -> [UInt8]? {
        if let rotateAt = rotateNonceAt, now >= rotateAt {
            nonce = "nonce-2"
            rotateNonceAt = nil
        }
        if local != address {
            relayFromPeer(bytes, from: source, to: local, now: now)
        } else if ChannelData.looksLikeChannelData(bytes) {
            guard let frame = try? ChannelData.decode(bytes), let allocation = allocations[source],
                  let peer = allocation.channels[frame.channel] else { return nil }
            log.append((now, "ChannelData to \(peer)"))
            queue.append(Transmit(destination: peer, source: allocation.relayed, payload: frame.payload))
        } else if let message = try? StunMessage.decode(bytes) {
            if message.messageClass == .indication, message.method == .send {
                guard let allocation = allocations[source], let peer = message.xorPeerAddress, let data = message.data,
                      allocation.permissions.contains(peer.with(port: 0)) else { return nil }
                log.append((now, "Send to \(peer)"))
                queue.append(Transmit(destination: peer, source: allocation.relayed, payload: data))
            } else if message.messageClass == .request {
                handleRequest(message, from: source, now: now)
            }
        }
        return nil
    }

    private mutating func handleRequest(_ request: StunMessage, from source: SocketAddress, now: Instant) {
        guard request.hasIntegrity, let username = request.username, let password = users[username] else {
            log.append((now, "\(request.method) 401"))
            return reply(request.response(.errorResponse, attributes: [.errorCode(.unauthenticated), .realm(realm), .nonce(nonce)]),
                         to: source, key: nil)
        }
        let key = StunKey.longTerm(username: username, realm: realm, password: password)
        guard request.verifyIntegrity(key: key) else {
            log.append((now, "\(request.method) bad integrity"))
            return reply(request.response(.errorResponse, attributes: [.errorCode(.unauthenticated), .realm(realm), .nonce(nonce)]),
                         to: source, key: nil)
        }
        guard request.nonce == nonce else {
            log.append((now, "\(request.method) 438"))
            return reply(request.response(.errorResponse, attributes: [.errorCode(.staleNonce), .realm(realm), .nonce(nonce)]),
                         to: source, key: nil)
        }
        switch request.method {
        case .allocate:
            guard allocations[source] == nil else {
                return reply(request.response(.errorResponse, attributes: [.errorCode(.allocationMismatch)]), to: source, key: key)
            }
            let relayed = address.with(port: nextRelayPort)
            nextRelayPort += 1
            allocations[source] = Allocation(relayed: relayed)
            log.append((now, "Allocate \(relayed)"))
            reply(request.response(attributes: [.xorRelayedAddress(relayed), .xorMappedAddress(source), .lifetime(600)]), to: source, key: key)
        case .refresh:
            let lifetime = request.lifetime ?? 600
            log.append((now, "Refresh \(lifetime)"))
            if lifetime == 0 { allocations[source] = nil }
            reply(request.response(attributes: [.lifetime(lifetime)]), to: source, key: key)
        case .createPermission:
            guard let peer = request.xorPeerAddress else { return }
            allocations[source]?.permissions.insert(peer.with(port: 0))
            log.append((now, "CreatePermission \(peer.host)"))
            reply(request.response(), to: source, key: key)
        case .channelBind:
            guard let peer = request.xorPeerAddress, let channel = request.channelNumber else { return }
            allocations[source]?.channels[channel] = peer
            allocations[source]?.permissions.insert(peer.with(port: 0))
            log.append((now, "ChannelBind \(channel) \(peer)"))
            reply(request.response(), to: source, key: key)
        default:
            reply(request.response(.errorResponse, attributes: [.errorCode(.badRequest)]), to: source, key: key)
        }
    }

    /// A datagram from a peer to a relayed address goes to the client if permitted:
    /// as ChannelData on a bound channel, as a Data indication otherwise.
    private mutating func relayFromPeer(_ bytes: [UInt8], from peer: SocketAddress, to relayed: SocketAddress, now: Instant) {
        guard let (client, allocation) = allocations.first(where: { $0.value.relayed == relayed }),
              allocation.permissions.contains(peer.with(port: 0)) else {
            log.append((now, "dropped from \(peer): no permission"))
            return
        }
        if let channel = allocation.channels.first(where: { $0.value == peer })?.key {
            log.append((now, "ChannelData from \(peer)"))
            queue.append(Transmit(destination: client, source: address, payload: ChannelData(channel: channel, payload: bytes).encode()))
        } else {
            log.append((now, "Data from \(peer)"))
            let indication = StunMessage(method: .data, messageClass: .indication, transactionID: TransactionID(high: 9, low: 9),
                                         attributes: [.xorPeerAddress(peer), .data(bytes)])
            queue.append(Transmit(destination: client, source: address, payload: indication.encode(fingerprint: true)))
        }
    }

    private mutating func reply(_ response: StunMessage, to client: SocketAddress, key: [UInt8]?) {
        queue.append(Transmit(destination: client, source: address, payload: response.encode(integrityKey: key, fingerprint: true)))
    }

    mutating func handleTimeout(now: Instant) {}
    mutating func pollTransmit() -> Transmit? { queue.isEmpty ? nil : queue.removeFirst() }
    func pollTimeout() -> Instant? { nil }

    func entries(_ prefix: String) -> [(at: Instant, entry: String)] { log.filter { $0.entry.hasPrefix(prefix) } }
}
