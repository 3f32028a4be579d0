import RTCBase

/// Collects the binary frames that follow a BINARY_EVENT or BINARY_ACK.
struct SocketIOAssembler: Sendable {
    private var pending: SocketIOPacket?
    private var frames: [[UInt8]] = []

    var isWaiting: Bool { pending != nil }

    /// A packet that needs no frames completes at once.
    mutating func start(_ packet: SocketIOPacket) -> SocketIOMessage? {
        guard packet.attachments > 0 else { return SocketIOMessage(packet: packet, attachments: []) }
        pending = packet
        frames = []
        return nil
    }

    /// One binary frame; throws if no binary packet announced it.
    mutating func add(_ frame: [UInt8]) throws(ParseError) -> SocketIOMessage? {
        guard let packet = pending else { throw .invalid("binary frame without a binary packet") }
        frames.append(frame)
        guard frames.count == packet.attachments else { return nil }
        pending = nil
        defer { frames = [] }
        return SocketIOMessage(packet: packet, attachments: frames)
    }
}
