import RTCBase

/// `a=msid-semantic` (the pre-RFC 8830 session attribute that Chromium, aiortc, SRS and
/// Janus still send): `WMS *` or `WMS <stream id>...`. Chromium writes a space after the
/// colon and aiortc does not; both parse to the same value.
public struct MsidSemantic: Sendable, Hashable, CustomStringConvertible {
    public var semantic: String
    public var identifiers: [String]

    public init(semantic: String = "WMS", identifiers: [String]) {
        self.semantic = semantic
        self.identifiers = identifiers
    }

    public init(parsing text: Substring) throws(ParseError) {
        let trimmed = text.drop(while: { $0 == " " })
        let fields = try SDPSyntax.tokens(trimmed, "msid-semantic")
        semantic = String(fields[0])
        identifiers = fields.dropFirst().map(String.init)
    }

    /// Printed the way Chromium does, with a space after the colon.
    public var description: String { " " + ([semantic] + identifiers).joined(separator: " ") }
}
