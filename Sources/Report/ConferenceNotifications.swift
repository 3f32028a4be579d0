/// The notification figures of one conference run, from every participant's
/// `ConferenceLog`: for each event a participant caused (its login, its logout, a
/// publication of its going live), which of the others should have been told, which were,
/// and how long after the event (`stream_notify_ms`, `participant_notify_ms`).
///
/// Who should have been told: a participant M expects the notice of an event at time t by
/// another participant P when
/// - `stream add` of P's stream S, from S's `ready`: S was not in M's login room info,
///   M was still there at t + `window`, and P still published at M's login + `window`;
/// - `participant join` of P, from P's `login` request: P was not in M's room info, M was
///   still there at t + `window`, and P still there at M's login + `window`;
/// - `participant leave` of P, from P's `logout` request: M knew P (in its room info, or
///   expecting P's join) and was still there at t + `window`.
/// The window keeps out what a portal may or may not tell a participant that is itself
/// arriving or leaving at the same moment. A notice only counts as received when expected
/// (a duplicate or one outside the window is not counted), but every notice that names an
/// event is timed.
public struct ConferenceNotifications: Equatable, Sendable {
    public var streamNotifyMs: [Double] = []
    public var participantNotifyMs: [Double] = []
    public var expected = 0
    public var received = 0
    public var lost: Int { expected - received }

    /// 1 s, in nanoseconds.
    public static let windowNs: Int64 = 1_000_000_000

    public init(logs: [ConferenceLog], windowNs: Int64 = windowNs) {
        for receiver in logs {
            for sender in logs where sender.participant != receiver.participant {
                for publication in sender.published {
                    expect(.streamAdd, subject: publication.stream, at: publication.readyAtNs, by: receiver,
                           when: !receiver.knownStreams.contains(publication.stream) && sender.endAtNs >= receiver.loginAtNs + windowNs,
                           windowNs: windowNs, into: \.streamNotifyMs)
                }
                let joins = !receiver.knownParticipants.contains(sender.participant) && sender.endAtNs >= receiver.loginAtNs + windowNs
                expect(.join, subject: sender.participant, at: sender.loginAtNs, by: receiver, when: joins, windowNs: windowNs,
                       into: \.participantNotifyMs)
                if sender.loggedOut {
                    let knew = receiver.knownParticipants.contains(sender.participant) || joins
                    expect(.leave, subject: sender.participant, at: sender.endAtNs, by: receiver, when: knew, windowNs: windowNs,
                           into: \.participantNotifyMs)
                }
            }
        }
    }

    /// Times `receiver`'s notices of the event and counts it as expected when `condition`
    /// holds and the receiver stayed `windowNs` past it.
    private mutating func expect(_ kind: ConferenceLog.Notice.Kind, subject: String, at eventNs: Int64, by receiver: ConferenceLog,
                                 when condition: Bool, windowNs: Int64, into figure: WritableKeyPath<Self, [Double]>) {
        let notices = receiver.notices.filter { $0.kind == kind && $0.subject == subject }
        for notice in notices { self[keyPath: figure].append(Double(notice.atNs - eventNs) / 1e6) }
        guard condition, eventNs + windowNs <= receiver.endAtNs else { return }
        expected += 1
        if !notices.isEmpty { received += 1 }
    }
}
