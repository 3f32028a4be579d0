import RTCBase

/// A Socket.IO v5 packet (PROTOCOLS.md section 4; the Socket.IO v5 protocol), the text
/// inside an Engine.IO message:
/// `<type>[<attachments>-][<namespace>,][<ack id>][<JSON data>]`.
public struct SocketIOPacket: Hashable, Sendable {
    public enum Kind: UInt8, Sendable {
        case connect = 0, disconnect = 1, event = 2, ack = 3, connectError = 4, binaryEvent = 5, binaryAck = 6

        var isBinary: Bool { self == .binaryEvent || self == .binaryAck }
    }

    public var kind: Kind
    /// `/` unless the packet names another namespace.
    public var namespace: String
    /// The acknowledgement id of an event that wants one, or of an ack.
    public var id: Int?
    /// CONNECT: auth / socket id object; EVENT: `[name, args...]`; ACK: `[args...]`;
    /// CONNECT_ERROR: `{"message": ...}`.
    public var data: JSONValue?
    /// How many binary frames follow (BINARY_EVENT and BINARY_ACK only).
    public var attachments: Int

    public init(kind: Kind, namespace: String = "/", id: Int? = nil, data: JSONValue? = nil, attachments: Int = 0) {
        self.kind = kind
        self.namespace = namespace
        self.id = id
        self.data = data
        self.attachments = attachments
    }

    /// The object that stands for attachment `number` in a binary packet's data.
    public static func placeholder(_ number: Int) -> JSONValue {
        .object(["_placeholder": true, "num": .integer(Int64(number))])
    }

    public var encoded: String {
        var out = String(kind.rawValue)
        if kind.isBinary { out += "\(attachments)-" }
        if namespace != "/" { out += namespace + "," }
        if let id { out += String(id) }
        if let data { out += data.serialized }
        return out
    }

    /// Parses and checks the shape each kind requires; `maxAttachments` bounds how many
    /// binary frames a peer may announce.
    public init(parsing text: String, maxAttachments: Int = 16) throws(ParseError) {
        var rest = Substring(text)
        guard let first = rest.utf8.first, let kind = Kind(rawValue: first &- UInt8(ascii: "0")) else {
            throw .invalid("Socket.IO packet type \(text.prefix(1))")
        }
        rest = rest.dropFirst()
        var attachments = 0
        if kind.isBinary {
            let count = rest.prefix(while: { $0.isASCII && $0.isNumber })
            guard !count.isEmpty, count.count <= 4, rest.dropFirst(count.count).first == "-", let number = Int(count) else {
                throw .invalid("binary Socket.IO packet without <count>-")
            }
            guard number <= maxAttachments else { throw ParseError(.tooLarge, "\(number) attachments, limit \(maxAttachments)") }
            attachments = number
            rest = rest.dropFirst(count.count + 1)
        }
        var namespace = "/"
        if rest.first == "/" {
            let end = rest.firstIndex(of: ",") ?? rest.endIndex
            namespace = String(rest[..<end])
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
        }
        let idText = rest.prefix(while: { $0.isASCII && $0.isNumber })
        var id: Int?
        if !idText.isEmpty {
            guard idText.count <= 15, let value = Int(idText) else { throw .invalid("Socket.IO ack id \(idText.prefix(20))") }
            id = value
            rest = rest.dropFirst(idText.count)
        }
        let data: JSONValue? = rest.isEmpty ? nil : try JSONValue(parsing: rest)
        self.init(kind: kind, namespace: namespace, id: id, data: data, attachments: attachments)
        try validate()
    }

    private func validate() throws(ParseError) {
        switch kind {
        case .connect:
            guard data == nil || data?.objectMembers != nil else { throw .invalid("CONNECT data is not an object") }
        case .disconnect:
            guard data == nil else { throw .invalid("DISCONNECT with data") }
        case .event, .binaryEvent:
            guard let array = data?.arrayValue, array.first?.stringValue != nil else {
                throw .invalid("EVENT data is not [\"name\", ...]")
            }
        case .ack, .binaryAck:
            guard id != nil, data?.arrayValue != nil else { throw .invalid("ACK without an id or an array") }
        case .connectError:
            guard data?.objectMembers != nil || data?.stringValue != nil else { throw .invalid("CONNECT_ERROR without a message") }
        }
        if kind.isBinary {
            for number in SocketIOPacket.placeholderNumbers(in: data ?? .null) where number < 0 || number >= attachments {
                throw .invalid("placeholder \(number) outside \(attachments) attachments")
            }
        }
    }

    /// The `num` of every placeholder inside `value`.
    static func placeholderNumbers(in value: JSONValue) -> [Int] {
        switch value {
        case .array(let elements):
            return elements.flatMap(placeholderNumbers)
        case .object(let members):
            if value["_placeholder"]?.boolValue == true, let number = value["num"]?.integerValue {
                return [Int(clamping: number)]
            }
            return members.flatMap { placeholderNumbers(in: $0.value) }
        default:
            return []
        }
    }
}
