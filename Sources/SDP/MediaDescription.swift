import RTCBase

/// One media section: the `m=` line and the lines after it (RFC 8866 5.14, JSEP RFC 9429 5.2.1).
///
/// `lines` is the section's content in order; the typed properties read it. Setters and
/// `append` add canonically printed lines, so a builder and a parser produce the same model.
public struct MediaDescription: Sendable, Hashable {
    public var kind: MediaKind
    /// 0 marks a rejected or disabled section (RFC 3264 6), 9 a bundled or trickling one.
    public var port: UInt16
    /// The `/<number of ports>` suffix, rarely used.
    public var portCount: Int?
    /// `UDP/TLS/RTP/SAVPF` for WebRTC media, `UDP/DTLS/SCTP` for data channels.
    public var proto: String
    /// Payload types (or `webrtc-datachannel`) in the offerer's order of preference.
    public var formats: [String]
    public var lines: [SDPLine]

    public init(kind: MediaKind, port: UInt16 = 9, proto: String = "UDP/TLS/RTP/SAVPF", formats: [String], lines: [SDPLine] = []) {
        self.kind = kind
        self.port = port
        self.proto = proto
        self.formats = formats
        self.lines = lines
    }

    /// Parses the value of an `m=` line; the section's other lines are appended later.
    init(parsingMediaLine text: Substring) throws(ParseError) {
        let fields = try SDPSyntax.tokens(text, "media")
        guard fields.count >= 4 else { throw .invalid("media line needs at least 4 fields, has \(fields.count)") }
        kind = MediaKind(try SDPSyntax.token(fields[0], "media type"))
        let portParts = fields[1].split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        port = try SDPSyntax.integer(portParts[0], "port")
        portCount = portParts.count == 2 ? try SDPSyntax.int(portParts[1], "port count") : nil
        proto = String(fields[2])
        formats = fields.dropFirst(3).map(String.init)
        lines = []
    }

    /// The text after `m=`.
    public var mediaLine: String {
        "\(kind) \(port)\(portCount.map { "/\($0)" } ?? "") \(proto) " + formats.joined(separator: " ")
    }

    /// Every attribute, in order.
    public var attributes: [SDPAttribute] { lines.compactMap(\.attribute) }

    /// Values of `.other` attributes called `name` (`attributes(named: "rtcp")`).
    public func attributes(named name: String) -> [String?] {
        attributes.compactMap { attribute in
            guard case .other(name, let value) = attribute else { return nil }
            return .some(value)
        }
    }

    /// Adds a canonically printed attribute line at the end of the section.
    public mutating func append(_ attribute: SDPAttribute) {
        lines.append(SDPLine(attribute))
    }

    /// Removes every attribute line for which `predicate` is true.
    public mutating func removeAttributes(where predicate: (SDPAttribute) -> Bool) {
        lines.removeAll { $0.attribute.map(predicate) ?? false }
    }

    /// True when the section is rejected (port 0, RFC 3264 6) and not bundle-only.
    public var isRejected: Bool { port == 0 && !attributes.contains(.other(name: "bundle-only", value: nil)) }
}
