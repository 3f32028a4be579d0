import RTCBase

/// One message of the room protocol (PROTOCOLS.md section 3): the classic one-to-one
/// rooms that many WebRTC tutorials copy. Clients send `join`, `leave` and `message`; the
/// server answers with `joined`, `other_joined` (or `otherjoin`), `full`, `leaved`, `bye`,
/// relays `message`, and, on rtcswarm's own server, says what it refused with `error`.
///
/// The same messages travel as Socket.IO events (`42["joined","r1","<id>"]`) or, for
/// servers and browser pages without Socket.IO, as one JSON object per WebSocket text
/// frame (`{"event":"joined","room":"r1","id":"<id>"}`).
public enum RoomMessage: Hashable, Sendable {
    // Client to server.
    case join(room: String)
    case leave(room: String)
    /// `data` is `{type: "offer"|"answer", sdp}`, `{type: "candidate", label, id,
    /// candidate}` or `{type: "bye"}`; the server relays it untouched.
    case message(room: String, data: JSONValue)
    // Server to client.
    case joined(room: String, id: String)
    case otherJoined(room: String, id: String)
    case full(room: String, id: String)
    case leaved(room: String, id: String)
    case bye(room: String, id: String)
    /// rtcswarm's server only: a request it refused, with a code and a sentence.
    case error(code: String, message: String)
}

/// Event names that differ between servers.
public struct RoomEventNames: Hashable, Sendable {
    /// What the others in a room get when someone joins: `other_joined` (the seed) or
    /// `otherjoin` (the widely copied public server).
    public var otherJoined: String

    public init(otherJoined: String = "other_joined") {
        self.otherJoined = otherJoined
    }
}

extension RoomMessage {
    /// The event name on the wire.
    public func eventName(_ names: RoomEventNames) -> String {
        switch self {
        case .join: "join"
        case .leave: "leave"
        case .message: "message"
        case .joined: "joined"
        case .otherJoined: names.otherJoined
        case .full: "full"
        case .leaved: "leaved"
        case .bye: "bye"
        case .error: "error"
        }
    }

    /// The arguments of the Socket.IO event, in the seed's order: `(room, id)`,
    /// `(room, data)`, or `({code, message})` for errors.
    public var socketIOArguments: [JSONValue] {
        switch self {
        case .join(let room), .leave(let room): [.string(room)]
        case .message(let room, let data): [.string(room), data]
        case .joined(let room, let id), .otherJoined(let room, let id), .full(let room, let id),
             .leaved(let room, let id), .bye(let room, let id):
            [.string(room), .string(id)]
        case .error(let code, let message): [.object(["code": .string(code), "message": .string(message)])]
        }
    }

    /// Reads a Socket.IO event; nil for an event that is not part of the protocol or has
    /// arguments of the wrong shape.
    public init?(socketIOEvent name: String, arguments: [JSONValue], names: RoomEventNames) {
        let room = arguments.first?.stringValue
        let second = arguments.count > 1 ? arguments[1] : nil
        switch name {
        case "join": guard let room else { return nil }; self = .join(room: room)
        case "leave": guard let room else { return nil }; self = .leave(room: room)
        case "message": guard let room, let second else { return nil }; self = .message(room: room, data: second)
        case "error":
            guard let body = arguments.first else { return nil }
            self = .error(code: body["code"]?.stringValue ?? "error", message: body["message"]?.stringValue ?? body.serialized)
        default:
            guard let room, let id = second?.stringValue else { return nil }
            switch name {
            case "joined": self = .joined(room: room, id: id)
            case names.otherJoined: self = .otherJoined(room: room, id: id)
            case "full": self = .full(room: room, id: id)
            case "leaved": self = .leaved(room: room, id: id)
            case "bye": self = .bye(room: room, id: id)
            default: return nil
            }
        }
    }

    /// The plain-WebSocket form: one JSON object.
    public func plainJSON(_ names: RoomEventNames) -> JSONValue {
        var members = [JSONValue.Member("event", .string(eventName(names)))]
        switch self {
        case .join(let room), .leave(let room):
            members.append(JSONValue.Member("room", .string(room)))
        case .message(let room, let data):
            members += [JSONValue.Member("room", .string(room)), JSONValue.Member("data", data)]
        case .joined(let room, let id), .otherJoined(let room, let id), .full(let room, let id),
             .leaved(let room, let id), .bye(let room, let id):
            members += [JSONValue.Member("room", .string(room)), JSONValue.Member("id", .string(id))]
        case .error(let code, let message):
            members += [JSONValue.Member("code", .string(code)), JSONValue.Member("message", .string(message))]
        }
        return .object(members)
    }

    /// Reads the plain-WebSocket form; nil when it is not a protocol message.
    public init?(plainJSON value: JSONValue, names: RoomEventNames) {
        guard let event = value["event"]?.stringValue else { return nil }
        var arguments: [JSONValue] = []
        if event == "error" {
            arguments = [value]
        } else {
            guard let room = value["room"] else { return nil }
            arguments = [room]
            if let second = event == "message" ? value["data"] : value["id"] { arguments.append(second) }
        }
        self.init(socketIOEvent: event, arguments: arguments, names: names)
    }
}
