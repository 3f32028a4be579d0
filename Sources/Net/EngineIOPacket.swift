import RTCBase

/// An Engine.IO v4 packet over WebSocket (PROTOCOLS.md section 4; the Engine.IO v4
/// protocol): a type digit then data in a text frame; binary data as a raw binary frame.
public enum EngineIOPacket: Hashable, Sendable {
    case open(EngineIOHandshake)
    case close
    /// `2`, or `2probe` during an upgrade.
    case ping(String)
    case pong(String)
    /// `4` + text: a Socket.IO packet, for Socket.IO.
    case message(String)
    /// A binary frame: a Socket.IO attachment.
    case binary([UInt8])
    case upgrade
    case noop

    /// Decodes one WebSocket message.
    public init(_ message: WebSocketMessage) throws(ParseError) {
        switch message {
        case .binary(let bytes):
            self = .binary(bytes)
        case .text(let text):
            guard let first = text.utf8.first else { throw .truncated("empty Engine.IO packet") }
            let data = String(text.dropFirst())
            switch first {
            case UInt8(ascii: "0"): self = .open(try EngineIOHandshake(json: JSONValue(parsing: data)))
            case UInt8(ascii: "1"): self = .close
            case UInt8(ascii: "2"): self = .ping(data)
            case UInt8(ascii: "3"): self = .pong(data)
            case UInt8(ascii: "4"): self = .message(data)
            case UInt8(ascii: "5"): self = .upgrade
            case UInt8(ascii: "6"): self = .noop
            default: throw .invalid("Engine.IO packet type \(Character(Unicode.Scalar(first)))")
            }
        }
    }

    /// The WebSocket message that carries this packet.
    public var encoded: WebSocketMessage {
        switch self {
        case .open(let handshake): .text("0" + handshake.json.serialized)
        case .close: .text("1")
        case .ping(let data): .text("2" + data)
        case .pong(let data): .text("3" + data)
        case .message(let data): .text("4" + data)
        case .binary(let bytes): .binary(bytes)
        case .upgrade: .text("5")
        case .noop: .text("6")
        }
    }
}
