import Impairment
import RTCBase
import SCTP

/// Two associations joined by two impaired one-way links, stepped in virtual time: the
/// DTLS client side (`client`) and the DTLS server side (`server`).
struct AssociationPair {
    var client: SctpAssociation
    var server: SctpAssociation
    var toServer: ImpairedLink<[UInt8]>
    var toClient: ImpairedLink<[UInt8]>
    var now = Instant.zero
    var clientEvents: [SctpEvent] = []
    var serverEvents: [SctpEvent] = []

    init(profile: ImpairmentProfile = ImpairmentProfile(), seed: UInt64 = 1,
         configure: (inout SctpAssociation.Configuration) -> Void = { _ in }) {
        var clientConfiguration = SctpAssociation.Configuration(role: .client)
        var serverConfiguration = SctpAssociation.Configuration(role: .server)
        configure(&clientConfiguration)
        configure(&serverConfiguration)
        client = SctpAssociation(configuration: clientConfiguration, seed: seed &* 31 &+ 1)
        server = SctpAssociation(configuration: serverConfiguration, seed: seed &* 31 &+ 2)
        toServer = ImpairedLink(profile: profile, seed: seed &* 31 &+ 3)
        toClient = ImpairedLink(profile: profile, seed: seed &* 31 &+ 4)
    }

    static func delay(_ milliseconds: Double, lossPct: Double = 0) -> ImpairmentProfile {
        var profile = ImpairmentProfile()
        profile.delayMs = milliseconds
        profile.lossPct = lossPct
        return profile
    }

    /// Moves what each side wants to send onto its link and collects events.
    mutating func drain() {
        while let packet = client.pollTransmit() { toServer.send(packet, size: packet.count, now: now) }
        while let packet = server.pollTransmit() { toClient.send(packet, size: packet.count, now: now) }
        while let event = client.pollEvent() { clientEvents.append(event) }
        while let event = server.pollEvent() { serverEvents.append(event) }
    }

    /// Steps time until `done` holds or `limit` passes; true when `done` held.
    @discardableResult
    mutating func run(for limit: Duration, until done: (inout AssociationPair) -> Bool = { _ in false }) -> Bool {
        let deadline = now + limit
        while true {
            drain()
            while let (packet, _) = toServer.pollDelivery(now: now) {
                server.handle(packet, now: now)
                drain()
            }
            while let (packet, _) = toClient.pollDelivery(now: now) {
                client.handle(packet, now: now)
                drain()
            }
            if done(&self) { return true }
            let next = [client.pollTimeout(), server.pollTimeout(), toServer.pollTimeout(), toClient.pollTimeout()]
                .compactMap { $0 }.min()
            guard let next, next <= deadline else {
                now = deadline
                return done(&self)
            }
            now = max(now, next)
            if let due = client.pollTimeout(), due <= now { client.handleTimeout(now: now) }
            if let due = server.pollTimeout(), due <= now { server.handleTimeout(now: now) }
        }
    }

    /// Connects (the client sends INIT) and runs until both sides are up.
    mutating func connect(limit: Duration = .seconds(30)) -> Bool {
        client.connect(now: now)
        return run(for: limit) { $0.client.isEstablished && $0.server.isEstablished }
    }

    func messages(_ events: [SctpEvent]) -> [DataChannelMessage] {
        events.compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    func opened(_ events: [SctpEvent]) -> [DataChannel] {
        events.compactMap { if case .channelOpen(let channel) = $0 { channel } else { nil } }
    }
}
