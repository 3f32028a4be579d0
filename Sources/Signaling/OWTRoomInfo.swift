import RTCBase

/// A stream the conference offers, as `login`'s room info and `stream {status: "add"}`
/// describe it (protocol 1.2: `media.tracks`; older portals: `media.audio`/`media.video`).
public struct OWTStreamInfo: Hashable, Sendable {
    /// `forward`: one participant's published stream; `mixed`: the MCU's composition
    /// (`<room>-common` for the default view).
    public enum Kind: String, Hashable, Sendable { case forward, mixed }

    public var id: String
    public var kind: Kind
    /// The publishing participant (forward streams).
    public var owner: String?
    /// The view's label (mixed streams).
    public var label: String?
    public var hasAudio: Bool
    public var hasVideo: Bool
    /// The video size the portal announces, if it does.
    public var videoWidth: Int?
    public var videoHeight: Int?

    public init(id: String, kind: Kind, owner: String? = nil, label: String? = nil, hasAudio: Bool, hasVideo: Bool,
                videoWidth: Int? = nil, videoHeight: Int? = nil) {
        self.id = id
        self.kind = kind
        self.owner = owner
        self.label = label
        self.hasAudio = hasAudio
        self.hasVideo = hasVideo
        self.videoWidth = videoWidth
        self.videoHeight = videoHeight
    }

    public init(json: JSONValue) throws(ParseError) {
        guard let id = json["id"]?.stringValue else { throw .invalid("OWT stream info without id") }
        guard let kind = json["type"]?.stringValue.flatMap(Kind.init(rawValue:)) else {
            throw .invalid("OWT stream \(id): type is not forward or mixed")
        }
        let media = json["media"]
        let tracks = media?["tracks"]?.arrayValue
        let audio = tracks?.first { $0["type"]?.stringValue == "audio" } ?? media?["audio"]
        let video = tracks?.first { $0["type"]?.stringValue == "video" } ?? media?["video"]
        let resolution = video?["parameters"]?["resolution"]
        self.init(id: id, kind: kind, owner: json["info"]?["owner"]?.stringValue, label: json["info"]?["label"]?.stringValue,
                  hasAudio: audio != nil && audio != .bool(false), hasVideo: video != nil && video != .bool(false),
                  videoWidth: resolution?["width"]?.integerValue.map { Int($0) },
                  videoHeight: resolution?["height"]?.integerValue.map { Int($0) })
    }
}

/// A member of the conference (`{id, role, user}`).
public struct OWTParticipant: Hashable, Sendable {
    public var id: String
    public var role: String
    public var user: String

    public init(id: String, role: String, user: String) {
        self.id = id
        self.role = role
        self.user = user
    }

    public init(json: JSONValue) throws(ParseError) {
        guard let id = json["id"]?.stringValue else { throw .invalid("OWT participant without id") }
        self.init(id: id, role: json["role"]?.stringValue ?? "", user: json["user"]?.stringValue ?? "")
    }
}

/// What `login` answers: who we are, the room, and the ticket for `relogin`.
public struct OWTRoomInfo: Hashable, Sendable {
    public var participantID: String
    public var roomID: String
    public var streams: [OWTStreamInfo]
    public var participants: [OWTParticipant]
    public var reconnectionTicket: String?

    public init(participantID: String, roomID: String, streams: [OWTStreamInfo], participants: [OWTParticipant],
                reconnectionTicket: String?) {
        self.participantID = participantID
        self.roomID = roomID
        self.streams = streams
        self.participants = participants
        self.reconnectionTicket = reconnectionTicket
    }

    public init(json: JSONValue) throws(ParseError) {
        guard let id = json["id"]?.stringValue, let room = json["room"], let roomID = room["id"]?.stringValue else {
            throw .invalid("OWT login answer without id or room.id")
        }
        var streams: [OWTStreamInfo] = []
        for stream in room["streams"]?.arrayValue ?? [] { streams.append(try OWTStreamInfo(json: stream)) }
        var participants: [OWTParticipant] = []
        for participant in room["participants"]?.arrayValue ?? [] { participants.append(try OWTParticipant(json: participant)) }
        self.init(participantID: id, roomID: roomID, streams: streams, participants: participants,
                  reconnectionTicket: json["reconnectionTicket"]?.stringValue)
    }

    /// The room's default mixed stream (`<room>-common`), or its first mixed one.
    public var mixedStream: OWTStreamInfo? {
        streams.first { $0.kind == .mixed && $0.id == "\(roomID)-common" } ?? streams.first { $0.kind == .mixed }
    }
}
