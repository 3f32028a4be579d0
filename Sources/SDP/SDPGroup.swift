import RTCBase

/// `a=group` (RFC 5888 5), e.g. `BUNDLE 0 1` (RFC 9143).
public struct SDPGroup: Sendable, Hashable, CustomStringConvertible {
    public var semantics: String
    public var mids: [String]

    public init(semantics: String, mids: [String]) {
        self.semantics = semantics
        self.mids = mids
    }

    public static func bundle(_ mids: [String]) -> SDPGroup { SDPGroup(semantics: "BUNDLE", mids: mids) }

    public init(parsing text: Substring) throws(ParseError) {
        let fields = try SDPSyntax.tokens(text, "group")
        semantics = String(fields[0])
        mids = fields.dropFirst().map(String.init)
    }

    public var description: String { ([semantics] + mids).joined(separator: " ") }
}
