import RTCBase
import STUN

/// A TURN server (RFC 8656 over UDP) for `VirtualNetwork`: one user, a 401 challenge
/// with realm and nonce (long-term credentials, RFC 8489 9.2), allocations, permissions,
/// channel bindings, Send/Data indications and ChannelData. Attach it at `address` and
/// at `relayAddresses` (the relayed transport addresses it hands out).
public final class VirtualTurnServer: DatagramMachine {
    public typealias Event = Never

    public let address: SocketAddress
    public let username: String
    public let password: String
    public let realm = "rtcswarm"
    private let nonce = "virtual-nonce"
    /// Datagrams relayed in each direction, for assertions.
    public private(set) var relayedToPeers = 0
    public private(set) var relayedToClients = 0

    private struct Allocation {
        var relayed: SocketAddress
        var permissions: Set<SocketAddress> = []
        var channels: [UInt16: SocketAddress] = [:]
    }

    private var allocations: [SocketAddress: Allocation] = [:]
    private var queue = FIFO<Transmit>()

    public init(address: SocketAddress, username: String, password: String) {
        self.address = address
        self.username = username
        self.password = password
    }

    /// The relayed addresses allocations get, in order: ports 49160-49169 of `address`.
    public var relayAddresses: [SocketAddress] { (49160..<49170).map { address.with(port: $0) } }

    public func handle(_ input: ReceivedDatagram, now: Instant) {
        let (datagram, source, local) = (input.payload, input.source, input.destination)
        if local != address { return relayToClient(datagram, from: source, relayed: local) }
        if ChannelData.looksLikeChannelData(datagram) {
            guard let frame = try? ChannelData.decode(datagram), let allocation = allocations[source],
                let peer = allocation.channels[frame.channel]
            else { return }
            send(frame.payload, from: allocation.relayed, to: peer)
            return
        }
        guard let message = try? StunMessage.decode(datagram) else { return }
        if message.messageClass == .indication, message.method == .send {
            guard let allocation = allocations[source], let peer = message.xorPeerAddress, let data = message.data,
                allocation.permissions.contains(peer.with(port: 0))
            else { return }
            send(data, from: allocation.relayed, to: peer)
        } else if message.messageClass == .request {
            answer(message, from: source)
        }
    }

    public func handleTimeout(now: Instant) {}
    public func pollTransmit() -> Transmit? { queue.popFirst() }
    public func pollTimeout() -> Instant? { nil }

    /// Requests must carry our username, realm, nonce and a valid MESSAGE-INTEGRITY;
    /// anything else gets the 401 challenge (RFC 8489 9.2.4).
    private func answer(_ request: StunMessage, from client: SocketAddress) {
        let key = StunKey.longTerm(username: username, realm: realm, password: password)
        guard request.hasIntegrity, request.username == username, request.nonce == nonce, request.verifyIntegrity(key: key)
        else {
            return reply(request.response(.errorResponse, attributes: [.errorCode(.unauthenticated), .realm(realm), .nonce(nonce)]),
                         to: client, key: nil)
        }
        switch request.method {
        case .allocate where allocations[client] == nil && allocations.count < relayAddresses.count:
            let relayed = relayAddresses[allocations.count]
            allocations[client] = Allocation(relayed: relayed)
            reply(request.response(attributes: [.xorRelayedAddress(relayed), .xorMappedAddress(client), .lifetime(600)]),
                  to: client, key: key)
        case .refresh:
            if request.lifetime == 0 { allocations[client] = nil }
            reply(request.response(attributes: [.lifetime(request.lifetime ?? 600)]), to: client, key: key)
        case .createPermission where allocations[client] != nil && request.xorPeerAddress != nil:
            allocations[client]?.permissions.insert(request.xorPeerAddress?.with(port: 0) ?? address)
            reply(request.response(), to: client, key: key)
        case .channelBind where allocations[client] != nil:
            guard let peer = request.xorPeerAddress, let channel = request.channelNumber else {
                return reply(request.response(.errorResponse, attributes: [.errorCode(.badRequest)]), to: client, key: key)
            }
            allocations[client]?.channels[channel] = peer
            allocations[client]?.permissions.insert(peer.with(port: 0))
            reply(request.response(), to: client, key: key)
        default:
            reply(request.response(.errorResponse, attributes: [.errorCode(.badRequest)]), to: client, key: key)
        }
    }

    /// A peer's datagram to a relayed address reaches the client if permitted: as
    /// ChannelData on a bound channel, else in a Data indication (RFC 8656 11.6, 12.4).
    private func relayToClient(_ bytes: [UInt8], from peer: SocketAddress, relayed: SocketAddress) {
        guard let (client, allocation) = allocations.first(where: { $0.value.relayed == relayed }),
            allocation.permissions.contains(peer.with(port: 0))
        else { return }
        relayedToClients += 1
        if let channel = allocation.channels.first(where: { $0.value == peer })?.key {
            queue.append(Transmit(destination: client, source: address, payload: ChannelData(channel: channel, payload: bytes).encode()))
        } else {
            let indication = StunMessage(
                method: .data, messageClass: .indication, transactionID: TransactionID(high: 0x7475_726E, low: UInt32(truncatingIfNeeded: relayedToClients)),
                attributes: [.xorPeerAddress(peer), .data(bytes)])
            queue.append(Transmit(destination: client, source: address, payload: indication.encode(fingerprint: true)))
        }
    }

    private func send(_ payload: [UInt8], from relayed: SocketAddress, to peer: SocketAddress) {
        relayedToPeers += 1
        queue.append(Transmit(destination: peer, source: relayed, payload: payload))
    }

    private func reply(_ response: StunMessage, to client: SocketAddress, key: [UInt8]?) {
        queue.append(Transmit(destination: client, source: address, payload: response.encode(integrityKey: key, fingerprint: true)))
    }
}
