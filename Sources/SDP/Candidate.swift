import RTCBase

/// An ICE candidate as written in SDP and in trickle messages (RFC 8839 5.1):
/// `candidate:<foundation> <component> <transport> <priority> <address> <port> typ <type>
/// [raddr <address>] [rport <port>] *(<extension name> <extension value>)`.
///
/// `tcptype` (RFC 6544 4.5) and `generation` (Chromium, SRS) are typed; every other
/// extension (`network-id`, `network-cost`, `ufrag`, ...) is kept in order.
public struct Candidate: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case host, srflx, prflx, relay
    }

    public var foundation: String
    public var component: Int
    /// `udp` or `tcp`, as written (compare case-insensitively).
    public var transport: String
    public var priority: UInt32
    /// An IP address, or an mDNS `.local` name.
    public var address: String
    public var port: UInt16
    public var kind: Kind
    public var relatedAddress: String?
    public var relatedPort: UInt16?
    public var tcpType: String?
    public var generation: Int?
    public var extensions: [SDPParameter]

    public init(
        foundation: String, component: Int = 1, transport: String = "udp", priority: UInt32,
        address: String, port: UInt16, kind: Kind, relatedAddress: String? = nil,
        relatedPort: UInt16? = nil, tcpType: String? = nil, generation: Int? = nil,
        extensions: [SDPParameter] = []
    ) {
        self.foundation = foundation
        self.component = component
        self.transport = transport
        self.priority = priority
        self.address = address
        self.port = port
        self.kind = kind
        self.relatedAddress = relatedAddress
        self.relatedPort = relatedPort
        self.tcpType = tcpType
        self.generation = generation
        self.extensions = extensions
    }

    /// Parses the attribute value; a leading `candidate:` (as in trickle messages and
    /// `RTCIceCandidate.candidate`) is accepted.
    public init(parsing text: Substring) throws(ParseError) {
        let body = text.hasPrefix("candidate:") ? text.dropFirst("candidate:".count) : text
        let fields = try SDPSyntax.tokens(body, "candidate")
        guard fields.count >= 8, fields.count % 2 == 0 else {
            throw .invalid("candidate has \(fields.count) fields")
        }
        guard fields[0].utf8.count <= 32 else { throw .invalid("candidate foundation is longer than 32") }
        foundation = String(fields[0])
        component = try SDPSyntax.int(fields[1], "component id", max: 256)
        transport = String(fields[2])
        priority = try SDPSyntax.integer(fields[3], "priority")
        address = String(fields[4])
        port = try SDPSyntax.integer(fields[5], "port")
        guard fields[6] == "typ", let kind = Kind(rawValue: String(fields[7])) else {
            throw .invalid("candidate needs 'typ host|srflx|prflx|relay', has '\(fields[6]) \(fields[7])'")
        }
        self.kind = kind
        extensions = []
        var index = 8
        while index + 1 < fields.count {
            let (name, value) = (fields[index], fields[index + 1])
            switch name {
            case "raddr": relatedAddress = String(value)
            case "rport": relatedPort = try SDPSyntax.integer(value, "rport")
            case "tcptype": tcpType = String(value)
            case "generation": generation = try SDPSyntax.int(value, "generation")
            default: extensions.append(SDPParameter(String(name), String(value)))
            }
            index += 2
        }
    }

    /// The candidate's transport address, when `address` is a numeric IP.
    public var socketAddress: SocketAddress? { SocketAddress(host: address, port: port) }

    /// The attribute value without the `candidate:` prefix.
    public var attributeValue: String {
        var text = "\(foundation) \(component) \(transport) \(priority) \(address) \(port) typ \(kind.rawValue)"
        if let relatedAddress { text += " raddr \(relatedAddress)" }
        if let relatedPort { text += " rport \(relatedPort)" }
        if let tcpType { text += " tcptype \(tcpType)" }
        if let generation { text += " generation \(generation)" }
        for item in extensions { text += " \(item.name) \(item.value ?? "")" }
        return text
    }

    /// `candidate:...`, the form trickle messages carry.
    public var description: String { "candidate:" + attributeValue }
}
