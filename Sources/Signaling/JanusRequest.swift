import RTCBase

/// One request of a Janus call before a transport carries it (PROTOCOLS.md section 5):
/// its transaction, its members, and the session and handle it addresses. Over HTTP the ids go in the path (`/janus/<session>/<handle>`); over a
/// WebSocket they go in the message as `session_id` and `handle_id`.
struct JanusRequest: Sendable {
    var transaction: String
    /// `janus` and what the step needs (`plugin`, `body`, `jsep`, `candidate`).
    var members: [JSONValue.Member]
    /// Every request but `create` names the session.
    var sessionID: Int64?
    /// Plugin messages, trickle, hangup and detach name the handle.
    var handleID: Int64?

    /// The POST body: the members and the transaction.
    var httpBody: JSONValue {
        .object(members + [JSONValue.Member("transaction", .string(transaction))])
    }

    /// The WebSocket message: the members, the transaction, then the ids.
    var webSocketMessage: JSONValue {
        var object = members + [JSONValue.Member("transaction", .string(transaction))]
        if let sessionID { object.append(JSONValue.Member("session_id", .integer(sessionID))) }
        if let handleID { object.append(JSONValue.Member("handle_id", .integer(handleID))) }
        return .object(object)
    }
}
