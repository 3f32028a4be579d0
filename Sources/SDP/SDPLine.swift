import RTCBase

/// What one SDP line holds, typed where the model knows it (RFC 8866 5).
public enum SDPField: Sendable, Hashable {
    /// `c=`
    case connection(ConnectionData)
    /// `t=`
    case timing(Timing)
    /// `a=`
    case attribute(SDPAttribute)
    /// Any other type (`i=`, `u=`, `e=`, `p=`, `b=`, `r=`, `z=`, `k=`), kept as written.
    case other(type: Character, value: String)

    /// The canonical line text without its line ending, e.g. `a=rtcp-mux`.
    public var text: String {
        switch self {
        case .connection(let connection): return "c=\(connection)"
        case .timing(let timing): return "t=\(timing)"
        case .attribute(let attribute): return "a=\(attribute)"
        case .other(let type, let value): return "\(type)=\(value)"
        }
    }
}

/// One line of a session or media section: the typed field and the exact text it was
/// read from, so that serializing a parsed description gives back the same bytes even
/// where a stack's spelling differs from the canonical one (`a=msid-semantic:WMS *`).
public struct SDPLine: Sendable, Hashable {
    public let field: SDPField
    /// The line without its line ending.
    public let text: String

    /// A new line printed canonically.
    public init(_ field: SDPField) {
        self.field = field
        self.text = field.text
    }

    /// A new attribute line printed canonically.
    public init(_ attribute: SDPAttribute) {
        self.init(.attribute(attribute))
    }

    /// Parses one line (without its line ending) that is not `v=`, `o=`, `s=` or `m=`:
    /// `type` is its first byte, a lower-case letter, and `value` the text after `=`.
    init(parsing text: String, type: UInt8, value: Substring) throws(ParseError) {
        switch type {
        case 0x63: field = .connection(try ConnectionData(parsing: value))
        case 0x74: field = .timing(try Timing(parsing: value))
        case 0x61: field = .attribute(try SDPAttribute(parsing: value))
        default: field = .other(type: Character(UnicodeScalar(type)), value: String(value))
        }
        self.text = text
    }

    /// The attribute on this line, if it is an `a=` line.
    public var attribute: SDPAttribute? {
        if case .attribute(let attribute) = field { return attribute }
        return nil
    }
}
