import RTCBase

/// Janus's Admin/Monitor API (Janus's "Admin/Monitor API" documentation; the answers below
/// as Janus 1.1.2 gives them): a JSON POST to the admin path, on its own port, carrying
/// `admin_secret`. `list_sessions` answers
/// `{"janus": "success", "sessions": [ids]}`; a wrong secret answers
/// `{"janus": "error", "error": {"code": 403, "reason": ...}}`.
public enum JanusAdmin {
    /// The request body listing Janus's sessions.
    public static func listSessionsBody(secret: String, transaction: String) -> String {
        JSONValue.object(["janus": "list_sessions", "transaction": .string(transaction), "admin_secret": .string(secret)]).serialized
    }

    /// From a `list_sessions` answer: how many sessions Janus holds. Nil when Janus
    /// answered an error or the body is not Janus's.
    public static func sessions(_ body: String) -> [String: Double]? {
        guard let value = try? JSONValue(parsing: body), value["janus"]?.stringValue == "success",
              let sessions = value["sessions"]?.arrayValue else { return nil }
        return ["sessions": Double(sessions.count)]
    }
}
