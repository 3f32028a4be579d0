/// A WebSocket message as Engine.IO carries it: text, or binary.
public enum WebSocketMessage: Hashable, Sendable {
    case text(String)
    case binary([UInt8])
}
