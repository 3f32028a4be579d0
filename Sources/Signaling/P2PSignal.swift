import RTCBase

/// What two peers say to each other to set up a call with no media server between them
/// (PROTOCOLS.md section 3, the seed client's `data`): the same JSON objects whether a room
/// server relays them as `message(room, data)` or a direct socket carries them a line each.
public enum P2PSignal: Hashable, Sendable {
    case offer(String)
    case answer(String)
    /// A trickled candidate (RFC 8838): the m-line index, the mid, the `candidate:` text.
    case candidate(label: Int, mid: String, candidate: String)
    /// The other side hangs up.
    case bye
    /// To a browser partner: stop sending, and report stats after `drainMs`.
    case stop(drainMs: Int)
    /// A browser partner's own figures (`getStats()`), as it sent them.
    case stats(JSONValue)
    /// A browser partner's page reporting a failure, in its words.
    case error(String)

    /// Reads one message; nil for a type this protocol does not have, or one missing its fields.
    public init?(_ json: JSONValue) {
        switch json["type"]?.stringValue {
        case "offer": guard let sdp = json["sdp"]?.stringValue else { return nil }; self = .offer(sdp)
        case "answer": guard let sdp = json["sdp"]?.stringValue else { return nil }; self = .answer(sdp)
        case "candidate":
            guard let candidate = json["candidate"]?.stringValue else { return nil }
            self = .candidate(label: Int(json["label"]?.integerValue ?? 0), mid: json["id"]?.stringValue ?? "0", candidate: candidate)
        case "bye": self = .bye
        case "stop": self = .stop(drainMs: Int(json["drain_ms"]?.integerValue ?? 0))
        case "stats": self = .stats(json["stats"] ?? .null)
        case "error": self = .error(json["message"]?.stringValue ?? "(no message)")
        default: return nil
        }
    }

    public var json: JSONValue {
        switch self {
        case .offer(let sdp): .object(["type": "offer", "sdp": .string(sdp)])
        case .answer(let sdp): .object(["type": "answer", "sdp": .string(sdp)])
        case .candidate(let label, let mid, let candidate):
            .object(["type": "candidate", "label": .integer(Int64(label)), "id": .string(mid), "candidate": .string(candidate)])
        case .bye: .object(["type": "bye"])
        case .stop(let drainMs): .object(["type": "stop", "drain_ms": .integer(Int64(drainMs))])
        case .stats(let stats): .object(["type": "stats", "stats": stats])
        case .error(let message): .object(["type": "error", "message": .string(message)])
        }
    }
}
