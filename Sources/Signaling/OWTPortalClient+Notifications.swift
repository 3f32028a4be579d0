import Net
import RTCBase

/// What the portal pushes: `progress` per transport, `stream`, `participant`, `text`,
/// and `drop` (the portal ends this participant for good).
extension OWTPortalClient {
    mutating func receiveNotification(_ message: SocketIOMessage, now: Instant) {
        let data = message.args.first ?? .null
        switch message.name {
        case "progress": receiveProgress(data)
        case "stream": receiveStream(data)
        case "participant": receiveParticipant(data)
        case "text":
            guard let from = data["from"]?.stringValue else { return }
            let body = data["message"] ?? .null
            events.append(.text(from: from, to: data["to"]?.stringValue ?? "all", message: body.stringValue ?? body.serialized))
        case "drop":
            fail("OWT portal dropped the participant")
        default:
            break
        }
    }

    /// `{id: transportId, status: "soac" | "ready" | "error", data?, sessionId?}`.
    private mutating func receiveProgress(_ data: JSONValue) {
        guard let transportID = data["id"]?.stringValue else { return }
        switch data["status"]?.stringValue {
        case "soac":
            let signaling = data["data"]
            switch signaling?["type"]?.stringValue {
            case "answer":
                guard let sdp = signaling?["sdp"]?.stringValue else { return fail("OWT portal: answer for \(transportID) without sdp") }
                events.append(.answer(transportID: transportID, sdp: sdp))
            case "candidate":
                let candidate = signaling?["candidate"]
                guard let text = candidate?.stringValue ?? candidate?["candidate"]?.stringValue else { return }
                events.append(.remoteCandidate(transportID: transportID, candidate: text.hasPrefix("a=") ? String(text.dropFirst(2)) : text))
            default:
                break
            }
        case "ready":
            events.append(.ready(transportID: transportID, sessionID: data["sessionId"]?.stringValue ?? ""))
        case "error":
            let session = data["sessionId"]?.stringValue.map { " session \($0)" } ?? ""
            fail("OWT portal: transport \(transportID)\(session) failed: \(Self.words(data["data"] ?? .null))")
        default:
            break
        }
    }

    /// `{id, status: "add", data: streamInfo}`, `{id, status: "update", data: {field, value}}`,
    /// `{id, status: "remove"}`.
    private mutating func receiveStream(_ data: JSONValue) {
        guard let id = data["id"]?.stringValue else { return }
        switch data["status"]?.stringValue {
        case "add":
            do {
                events.append(.streamAdded(try OWTStreamInfo(json: data["data"] ?? .null)))
            } catch {
                fail("OWT portal: stream add: \(error)")
            }
        case "update":
            events.append(.streamUpdated(id: id, field: data["data"]?["field"]?.stringValue ?? ""))
        case "remove":
            events.append(.streamRemoved(id: id))
        default:
            break
        }
    }

    /// `{action: "join", data: {id, role, user}}` or `{action: "leave", data: id}`.
    private mutating func receiveParticipant(_ data: JSONValue) {
        switch data["action"]?.stringValue {
        case "join":
            guard let participant = try? OWTParticipant(json: data["data"] ?? .null) else { return }
            events.append(.participantJoined(participant))
        case "leave":
            guard let id = data["data"]?.stringValue else { return }
            events.append(.participantLeft(id: id))
        default:
            break
        }
    }
}
