import RTCBase
import STUN

/// A TURN client for one allocation over UDP (RFC 8656), sans-IO.
///
/// Allocates with long-term credentials after the server's 401 challenge (RFC 8489 9.2),
/// follows 438 Stale Nonce, refreshes the allocation a minute before it ends, keeps
/// permissions (5 min) and channel bindings (10 min) alive, wraps outgoing datagrams in
/// ChannelData once a channel is bound and in Send indications before, and unwraps
/// ChannelData and Data indications from the server.
public struct TurnClient: Sendable {
    public let server: SocketAddress
    /// The local socket (base) the allocation belongs to.
    public let local: SocketAddress
    let username: String
    let password: String
    public internal(set) var state: TurnState = .idle
    public internal(set) var relayedAddress: SocketAddress?
    public internal(set) var mappedAddress: SocketAddress?

    var realm: String?
    var nonce: String?
    var key: [UInt8]?
    var refreshAt: Instant?
    /// Permission refresh times by peer IP (port 0): permissions ignore ports (RFC 8656 9).
    var permissions: [SocketAddress: Instant] = [:]
    var channels: [SocketAddress: Channel] = [:]
    var nextChannel: UInt16 = ChannelData.validChannels.lowerBound
    var transactions: StunTransactions<Purpose>
    var generator: SeededGenerator
    var transmits: [Transmit] = []
    var events: [TurnEvent] = []
    var lastNow = Instant.zero

    struct Channel: Sendable {
        var number: UInt16
        var bound = false
        var refreshAt: Instant?
    }

    /// What a request was for; enough to build it again after a 401 or 438.
    enum Purpose: Sendable, Equatable {
        case allocate
        case refresh(lifetime: UInt32)
        case permission(SocketAddress)
        case channelBind(SocketAddress, UInt16)
    }

    /// Permission lifetime 300 s (RFC 8656 9), refreshed after 240 s.
    static let permissionRefresh: Duration = .seconds(240)
    /// Channel lifetime 600 s (RFC 8656 12), refreshed after 540 s.
    static let channelRefresh: Duration = .seconds(540)

    /// A client of `server` on the local socket `local`, with long-term credentials;
    /// `seed` drives transaction IDs, `rto` and `maxTransmissions` retransmission.
    public init(server: SocketAddress, local: SocketAddress, username: String, password: String, seed: UInt64 = 7,
                rto: Duration = .milliseconds(500), maxTransmissions: Int = 7) {
        self.server = server
        self.local = local
        self.username = username
        self.password = password
        self.generator = SeededGenerator(seed: seed)
        self.transactions = StunTransactions(rto: rto, maxTransmissions: maxTransmissions, lastWaitFactor: 16)
    }

    /// Starts the Allocate transaction (RFC 8656 7.1), for a UDP relay.
    public mutating func allocate(now: Instant) {
        lastNow = max(lastNow, now)
        state = .allocating
        send(.allocate, now: now)
    }

    /// Installs (and keeps) a permission for `peer`'s IP address (RFC 8656 9.1).
    public mutating func createPermission(for peer: SocketAddress, now: Instant) {
        lastNow = max(lastNow, now)
        let key = peer.with(port: 0)
        guard permissions[key] == nil else { return }
        permissions[key] = now + Self.permissionRefresh
        send(.permission(peer), now: now)
    }

    /// Binds a channel to `peer` (RFC 8656 12.1); until it is confirmed, data goes in Send
    /// indications.
    public mutating func bindChannel(to peer: SocketAddress, now: Instant) {
        lastNow = max(lastNow, now)
        guard channels[peer] == nil, nextChannel <= ChannelData.validChannels.upperBound else { return }
        channels[peer] = Channel(number: nextChannel)
        send(.channelBind(peer, nextChannel), now: now)
        nextChannel += 1
    }

    /// Ends the allocation with a Refresh of lifetime 0 (RFC 8656 7.3).
    public mutating func deallocate(now: Instant) {
        lastNow = max(lastNow, now)
        guard state == .allocated else { return }
        send(.refresh(lifetime: 0), now: now)
    }

    /// `payload` for `peer` as the datagram to send to the server: ChannelData on a bound
    /// channel (RFC 8656 12.5), a Send indication otherwise (11.1); nil before allocation.
    public mutating func wrap(_ payload: [UInt8], for peer: SocketAddress) -> Transmit? {
        guard state == .allocated else { return nil }
        if let channel = channels[peer], channel.bound {
            return Transmit(destination: server, source: local, payload: ChannelData(channel: channel.number, payload: payload).encode())
        }
        let indication = StunMessage(method: .send, messageClass: .indication, transactionID: TransactionID(using: &generator),
                                     attributes: [.xorPeerAddress(peer), .data(payload)])
        return Transmit(destination: server, source: local, payload: indication.encode(fingerprint: true))
    }

    /// The next datagram for the server.
    public mutating func pollTransmit() -> Transmit? { transmits.isEmpty ? nil : transmits.removeFirst() }
    /// The next thing to report.
    public mutating func pollEvent() -> TurnEvent? { events.isEmpty ? nil : events.removeFirst() }

    /// When `handleTimeout(now:)` must run next: a retransmission or a refresh.
    public func pollTimeout() -> Instant? {
        let candidates = [transactions.nextDeadline, refreshAt] + Array(permissions.values).map(Optional.some)
            + channels.values.map(\.refreshAt)
        return candidates.compactMap { $0 }.min()
    }

    /// Builds and sends the request for `purpose`, authenticated once the server's realm
    /// and nonce are known (RFC 8489 9.2.4).
    mutating func send(_ purpose: Purpose, now: Instant) {
        let method: StunMethod
        var attributes: [StunAttribute]
        switch purpose {
        case .allocate:
            method = .allocate
            attributes = [.requestedTransport(17)]
        case .refresh(let lifetime):
            method = .refresh
            attributes = [.lifetime(lifetime)]
        case .permission(let peer):
            method = .createPermission
            attributes = [.xorPeerAddress(peer)]
        case .channelBind(let peer, let channel):
            method = .channelBind
            attributes = [.channelNumber(channel), .xorPeerAddress(peer)]
        }
        if let realm, let nonce {
            attributes += [.username(username), .realm(realm), .nonce(nonce)]
        }
        let id = TransactionID(using: &generator)
        let request = StunMessage(method: method, messageClass: .request, transactionID: id, attributes: attributes)
        let transmit = Transmit(destination: server, source: local, payload: request.encode(integrityKey: key, fingerprint: true))
        transactions.start(id, purpose: purpose, transmit: transmit, now: now)
        transmits.append(transmit)
    }
}
