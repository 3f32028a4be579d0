import EventLoop
import Report
import Signaling

/// What an OWT peer of any role notes of its conference for its record's `ConferenceLog`:
/// when its `login` went out (the ack says when), who it is and what its
/// room info listed, its publication's `ready` (publishers only: a subscription's `ready`
/// announces nothing), and each `stream add`, `participant join` and `leave` as it arrives,
/// on the monotonic clock the machine's processes share.
final class OWTConferenceWatch {
    private let loop: EventLoop
    private let publishes: Bool
    private var participant: String?
    private var loginAtNs: Int64?
    private var known: (streams: [String], participants: [String]) = ([], [])
    private var published: [ConferenceLog.Publication] = []
    private var notices: [ConferenceLog.Notice] = []
    /// When it started to leave (before its `logout` went out).
    private var leftAtNs: Int64?
    /// The conference's room id, once joined.
    private(set) var roomID = ""

    init(loop: EventLoop, publishes: Bool) {
        self.loop = loop
        self.publishes = publishes
    }

    func note(_ event: OWTPortalEvent) {
        let now = loop.now().nanoseconds
        switch event {
        case .acknowledged("login", _, let sentAt):
            loginAtNs = sentAt.nanoseconds
        case .joined(let room):
            (participant, roomID) = (room.participantID, room.roomID)
            known = (room.streams.map(\.id), room.participants.map(\.id))
        case .ready(_, let session) where publishes:
            published.append(.init(stream: session, readyAtNs: now))
        case .streamAdded(let stream):
            notices.append(.init(kind: .streamAdd, subject: stream.id, atNs: now))
        case .participantJoined(let other):
            notices.append(.init(kind: .join, subject: other.id, atNs: now))
        case .participantLeft(let id):
            notices.append(.init(kind: .leave, subject: id, atNs: now))
        default:
            break
        }
    }

    /// It is about to send `logout`: the leave's time, taken before the request goes out
    /// (after it, a descheduled process could read its clock after the others heard).
    func leaving() {
        if leftAtNs == nil { leftAtNs = loop.now().nanoseconds }
    }

    /// The log as the peer ends (at `leaving()`, else now; `loggedOut`: it sends `logout`
    /// then, or has); nil when it never logged in.
    func log(loggedOut: Bool) -> ConferenceLog? {
        guard let participant, let loginAtNs else { return nil }
        return ConferenceLog(participant: participant, loginAtNs: loginAtNs, endAtNs: leftAtNs ?? loop.now().nanoseconds, loggedOut: loggedOut,
                             knownStreams: known.streams, knownParticipants: known.participants, published: published, notices: notices)
    }
}
