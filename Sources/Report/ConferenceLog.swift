/// What one conference participant (an OWT peer of any role) saw of the others, kept in its
/// record so that the coordinator can pair each notification with the event it reports,
/// whichever worker process the two peers ran in (`ConferenceNotifications`).
///
/// Times are `CLOCK_MONOTONIC` nanoseconds, which every process on one machine shares.
public struct ConferenceLog: Codable, Equatable, Sendable {
    /// A stream this participant published (its publication id is the stream id) and when
    /// its `progress {status: "ready"}` arrived.
    public struct Publication: Codable, Equatable, Sendable {
        public var stream: String
        public var readyAtNs: Int64

        public init(stream: String, readyAtNs: Int64) {
            self.stream = stream
            self.readyAtNs = readyAtNs
        }
    }

    /// A `stream {status: "add"}` or `participant {action: "join" | "leave"}` the portal
    /// pushed, naming a stream id or a participant id.
    public struct Notice: Codable, Equatable, Sendable {
        public enum Kind: String, Codable, Sendable { case streamAdd = "stream_add", join, leave }
        public var kind: Kind
        public var subject: String
        public var atNs: Int64

        public init(kind: Kind, subject: String, atNs: Int64) {
            self.kind = kind
            self.subject = subject
            self.atNs = atNs
        }
    }

    /// Its participant id (login's answer).
    public var participant: String
    /// When its `login` request went out: the portal cannot tell the others before that.
    public var loginAtNs: Int64
    /// When it sent `logout` (`loggedOut`), or when it ended otherwise.
    public var endAtNs: Int64
    public var loggedOut: Bool
    /// The streams and participants login's room info listed: nobody announces those again.
    public var knownStreams: [String]
    public var knownParticipants: [String]
    public var published: [Publication]
    public var notices: [Notice]

    public init(participant: String, loginAtNs: Int64, endAtNs: Int64, loggedOut: Bool, knownStreams: [String] = [],
                knownParticipants: [String] = [], published: [Publication] = [], notices: [Notice] = []) {
        self.participant = participant
        self.loginAtNs = loginAtNs
        self.endAtNs = endAtNs
        self.loggedOut = loggedOut
        self.knownStreams = knownStreams
        self.knownParticipants = knownParticipants
        self.published = published
        self.notices = notices
    }
}
