import RTCBase

/// `a=extmap` (RFC 8285 5): `<id>[/<direction>] <uri> [<attributes>]`.
public struct ExtMap: Sendable, Hashable, CustomStringConvertible {
    /// 1-14 for one-byte headers, up to 255 with two-byte headers (RFC 8285 4).
    public var id: Int
    public var direction: MediaDirection?
    public var uri: String
    public var attributes: String?

    public init(id: Int, direction: MediaDirection? = nil, uri: String, attributes: String? = nil) {
        self.id = id
        self.direction = direction
        self.uri = uri
        self.attributes = attributes
    }

    /// RFC 9143 15.2: the mid in every packet, needed for BUNDLE demultiplexing.
    public static let sdesMid = "urn:ietf:params:rtp-hdrext:sdes:mid"
    /// Chromium's 24-bit send time, used by REMB bandwidth estimation.
    public static let absSendTime = "http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time"
    /// Transport-wide sequence numbers for transport-cc feedback (draft-holmer-rmcat).
    public static let transportCC = "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"
    /// RFC 6464 client-to-mixer audio level.
    public static let audioLevel = "urn:ietf:params:rtp-hdrext:ssrc-audio-level"

    public init(parsing text: Substring) throws(ParseError) {
        let (head, rest) = try SDPSyntax.splitSpace(text, "extmap")
        let (idText, directionText) = Self.splitSlash(head)
        id = try SDPSyntax.int(idText, "extmap id", max: 4351)
        guard id >= 1 else { throw .invalid("extmap id 0 is reserved") }
        if let directionText {
            guard let parsed = MediaDirection(rawValue: String(directionText)) else {
                throw .invalid("extmap direction '\(directionText)' is unknown")
            }
            direction = parsed
        }
        if let space = SDPSyntax.firstIndex(of: 0x20, in: rest) {
            uri = String(rest[..<space])
            attributes = String(rest[rest.utf8.index(after: space)...])
        } else {
            uri = String(rest)
        }
        guard !uri.isEmpty else { throw .invalid("extmap has an empty URI") }
    }

    private static func splitSlash(_ text: Substring) -> (Substring, Substring?) {
        guard let slash = SDPSyntax.firstIndex(of: 0x2f, in: text) else { return (text, nil) }
        return (text[..<slash], text[text.utf8.index(after: slash)...])
    }

    public var description: String {
        var text = "\(id)"
        if let direction { text += "/\(direction.rawValue)" }
        text += " \(uri)"
        if let attributes { text += " \(attributes)" }
        return text
    }
}
