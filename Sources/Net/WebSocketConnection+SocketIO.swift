import RTCBase

extension WebSocketConnection {
    /// Carries out what a Socket.IO session asked for.
    public mutating func perform(_ output: SocketIOOutput, now: Instant) {
        switch output {
        case .message(.text(let text)): send(text: text)
        case .message(.binary(let bytes)): send(binary: bytes)
        case .close(let code, let reason): close(code: code, reason: reason, now: now)
        }
    }
}
