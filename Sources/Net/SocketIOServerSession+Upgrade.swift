import RTCBase

extension SocketIOServerSession {
    /// Checks a WebSocket upgrade request for Engine.IO v4 (`/socket.io/?EIO=4&transport=websocket`)
    /// and answers it: the 101 of `WebSocketHandshake.serverResponse`, or a 400 with the
    /// Engine.IO error body (code 5 for another protocol version such as `EIO=3`, code 0
    /// for another transport, code 3 for a bad request).
    public static func upgradeResponse(to request: HTTPRequest, path: String = "/socket.io/") -> HTTPResponse {
        let parts = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query = parts.count > 1 ? PercentEncoding.queryItems(String(parts[1])) : []
        func refuse(_ code: Int64, _ message: String) -> HTTPResponse {
            HTTPResponse(status: 400, headers: ["Content-Type": "application/json"],
                         body: Array(JSONValue.object(["code": .integer(code), "message": .string(message)]).serialized.utf8))
        }
        guard parts.first.map(String.init) == path, let query else { return refuse(3, "Bad request") }
        guard query.first(where: { $0.name == "EIO" })?.value == "4" else { return refuse(5, "Unsupported protocol version") }
        guard query.first(where: { $0.name == "transport" })?.value == "websocket" else { return refuse(0, "Transport unknown") }
        let (response, _) = WebSocketHandshake.serverResponse(to: request)
        return response
    }
}
