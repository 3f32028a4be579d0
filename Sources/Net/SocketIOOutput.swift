import RTCBase

/// What a Socket.IO session asks its driver to do on the WebSocket.
public enum SocketIOOutput: Hashable, Sendable {
    case message(WebSocketMessage)
    /// Close the WebSocket with this code (then the session is over).
    case close(code: UInt16, reason: String)
}

extension SocketIOOutput {
    /// A Socket.IO packet inside an Engine.IO message packet (`4` + the packet).
    static func carrying(_ packet: SocketIOPacket) -> SocketIOOutput {
        .message(EngineIOPacket.message(packet.encoded).encoded)
    }

    /// An event or ack: its packet, then one binary frame per attachment.
    static func carrying(_ message: SocketIOMessage) -> [SocketIOOutput] {
        let (packet, frames) = message.packets()
        return [carrying(packet)] + frames.map { .message(.binary($0)) }
    }
}
