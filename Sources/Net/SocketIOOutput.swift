import RTCBase

/// What a Socket.IO session asks its driver to do on the WebSocket.
public enum SocketIOOutput: Hashable, Sendable {
    case message(WebSocketMessage)
    /// Close the WebSocket with this code (then the session is over).
    case close(code: UInt16, reason: String)
}
