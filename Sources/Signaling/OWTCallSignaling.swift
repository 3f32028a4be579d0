import Net
import RTCBase

/// One OWT conference participant that publishes or subscribes one stream, as the call
/// setup the runner's server peer drives (one `OWTPortalClient` underneath): login, then
/// `publish` (or `subscribe` to the mixed stream or a forward one), the offer in `soac`,
/// the portal's answer as `.answer`; hanging up unpublishes (unsubscribes) and logs out.
public struct OWTCallSignaling: CallSignaling {
    /// Which stream a subscriber takes.
    public enum Source: Hashable, Sendable {
        /// The room's mixed stream (`<room>-common`).
        case mixed
        /// A publisher's forward stream: the `pick`-th (round robin) of those in the room
        /// at login, or the first one added when there is none yet.
        case forward(pick: Int)
    }

    public enum Role: Hashable, Sendable { case publish, subscribe(Source) }

    public private(set) var client: OWTPortalClient
    public let role: Role
    private let offer: String
    private var transportID: String?
    private var sessionID: String?
    private var requested = false
    /// Local candidates from before the portal named the transport.
    private var candidates: [TrickleCandidate] = []
    private var events = FIFO<CallSetupEvent>()

    public init(configuration: OWTPortalClient.Configuration, role: Role, offer: String) {
        client = OWTPortalClient(configuration: configuration)
        self.role = role
        self.offer = offer
    }

    // MARK: CallSignaling

    /// The client logs in on its own; the request follows `joined`.
    public mutating func start(now: Instant) { translate(now: now) }

    /// The portal always answers our offer; it never offers.
    public mutating func answer(_ sdp: String, now: Instant) {}

    /// Trickles through `soac`; OWT has no end-of-candidates.
    public mutating func trickle(_ candidate: TrickleCandidate?, now: Instant) {
        guard let candidate else { return }
        guard let transportID else { return candidates.append(candidate) }
        client.sendCandidate(candidate, transportID: transportID, now: now)
    }

    /// A `text` to everyone, once logged in.
    public mutating func sendText(_ text: String, now: Instant) {
        guard client.isJoined else { return }
        client.sendText(text, now: now)
        translate(now: now)
    }

    public mutating func hangUp(now: Instant) {
        guard client.isJoined else { return events.append(.closed) }
        if let sessionID {
            if role == .publish { client.unpublish(sessionID, now: now) } else { client.unsubscribe(sessionID, now: now) }
        }
        client.logout(now: now)
        translate(now: now)
    }

    // MARK: StreamMachine

    public mutating func handle(_ input: StreamInput, now: Instant) {
        client.handle(input, now: now)
        translate(now: now)
    }

    public mutating func handleTimeout(now: Instant) {
        client.handleTimeout(now: now)
        translate(now: now)
    }

    public mutating func pollTransmit() -> StreamOutput? { client.pollTransmit() }
    public mutating func pollEvent() -> CallSetupEvent? { events.popFirst() }
    public func pollTimeout() -> Instant? { client.pollTimeout() }

    // MARK: Inside

    /// Turns the client's events into call-setup events and requests.
    private mutating func translate(now: Instant) {
        while let event = client.pollEvent() {
            switch event {
            case .acknowledged, .joined, .ready, .streamAdded, .participantJoined, .participantLeft, .text:
                events.append(.conference(event))
            default:
                break
            }
            switch event {
            case .joined(let room):
                switch role {
                case .publish: request(subscribingTo: nil, now: now)
                case .subscribe(.mixed):
                    if let mixed = room.mixedStream {
                        subscribe(mixed.id, now: now)
                    } else {
                        fail("OWT portal: room \(room.roomID) has no mixed stream")
                    }
                case .subscribe(.forward(let pick)):
                    let forward = room.streams.filter { $0.kind == .forward }
                    if !forward.isEmpty { subscribe(forward[pick % forward.count].id, now: now) }
                }
            case .streamAdded(let stream):
                if case .subscribe(.forward) = role, stream.kind == .forward { subscribe(stream.id, now: now) }
            case .accepted(_, let transport, let session):
                transportID = transport
                sessionID = session
                for candidate in candidates { client.sendCandidate(candidate, transportID: transport, now: now) }
                candidates = []
            case .answer(let transport, let sdp):
                if transport == transportID { events.append(.answer(sdp)) }
            case .ready(_, let session):
                events.append(.notice("OWT ready \(session)"))
            case .reconnecting(let reason):
                events.append(.notice("OWT portal connection lost, logging in again: \(reason)"))
            case .relogged:
                events.append(.notice("OWT relogin succeeded"))
            case .loggedOut:
                events.append(.closed)
            case .failed(let words):
                events.append(.failed(CallSetupError(words.contains(" refused") ? .refused : .noAnswer, words)))
            case .acknowledged(let request, let milliseconds, _):
                let phase = ["login": "login_ms", "publish": "publish_ack_ms", "subscribe": "subscribe_ack_ms"][request]
                if let phase { events.append(.timing(phase, milliseconds: milliseconds)) }
            case .remoteCandidate, .streamUpdated, .streamRemoved, .participantJoined, .participantLeft, .text, .ticketRefreshed:
                break
            }
        }
    }

    private mutating func subscribe(_ streamID: String, now: Instant) { request(subscribingTo: streamID, now: now) }

    /// Makes the one publish (nil) or subscribe request; later calls do nothing.
    private mutating func request(subscribingTo streamID: String?, now: Instant) {
        guard !requested else { return }
        requested = true
        do {
            if let streamID {
                _ = try client.subscribe(offer: offer, from: streamID, now: now)
            } else {
                _ = try client.publish(offer: offer, now: now)
            }
        } catch {
            fail("OWT: our offer cannot be described to the portal: \(error.message)")
        }
    }

    private mutating func fail(_ words: String) {
        events.append(.failed(CallSetupError(.badAnswer, words)))
    }
}
