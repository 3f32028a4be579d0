import RTCBase

/// An event or acknowledgement received over Socket.IO, binary attachments reassembled.
public struct SocketIOMessage: Hashable, Sendable {
    public var namespace: String
    /// The event name; nil for an acknowledgement.
    public var name: String?
    /// The arguments after the name (event) or all of them (ack). Binary arguments are
    /// placeholders (`SocketIOPacket.placeholder(n)`) standing for `attachments[n]`.
    public var args: [JSONValue]
    public var attachments: [[UInt8]]
    /// For an event, the id to acknowledge (nil if the sender wants no ack); for an ack,
    /// the id of the emit it answers.
    public var ackId: Int?

    public init(namespace: String = "/", name: String?, args: [JSONValue], attachments: [[UInt8]] = [], ackId: Int? = nil) {
        self.namespace = namespace
        self.name = name
        self.args = args
        self.attachments = attachments
        self.ackId = ackId
    }

    /// The packet (and binary frames) that send this message.
    func packets() -> (SocketIOPacket, [[UInt8]]) {
        let binary = !attachments.isEmpty
        if let name {
            let kind: SocketIOPacket.Kind = binary ? .binaryEvent : .event
            return (SocketIOPacket(kind: kind, namespace: namespace, id: ackId, data: .array([.string(name)] + args),
                                   attachments: attachments.count), attachments)
        }
        return (SocketIOPacket(kind: binary ? .binaryAck : .ack, namespace: namespace, id: ackId, data: .array(args),
                               attachments: attachments.count), attachments)
    }

    /// The message a complete EVENT/ACK packet carries.
    init(packet: SocketIOPacket, attachments: [[UInt8]]) {
        var args = packet.data?.arrayValue ?? []
        var name: String?
        if packet.kind == .event || packet.kind == .binaryEvent {
            name = args.first?.stringValue
            args = Array(args.dropFirst())
        }
        self.init(namespace: packet.namespace, name: name, args: args, attachments: attachments, ackId: packet.id)
    }
}
