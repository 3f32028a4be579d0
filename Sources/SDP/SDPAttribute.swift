import RTCBase

/// An `a=` line (RFC 8866 5.13), typed when the model knows the attribute.
///
/// Known attributes are validated while parsing, so a malformed `a=rtpmap` or
/// `a=candidate` rejects the description; anything else is kept as `.other`.
public enum SDPAttribute: Sendable, Hashable, CustomStringConvertible {
    case group(SDPGroup)
    case msidSemantic(MsidSemantic)
    case iceLite
    case iceUfrag(String)
    case icePwd(String)
    case iceOptions([String])
    case fingerprint(Fingerprint)
    case setup(SetupRole)
    case mid(String)
    case direction(MediaDirection)
    case rtcpMux
    case rtcpRsize
    case candidate(Candidate)
    case endOfCandidates
    case rtpmap(RTPMap)
    case fmtp(FormatParameters)
    case rtcpFeedback(RTCPFeedback)
    case extmap(ExtMap)
    case msid(Msid)
    case ssrc(SSRCAttribute)
    case ssrcGroup(SSRCGroup)
    /// Any attribute the model does not type: `name` or `name:value`.
    case other(name: String, value: String?)

    /// Parses the text after `a=`.
    public init(parsing text: Substring) throws(ParseError) {
        let (nameText, value) = SDPSyntax.splitColon(text)
        let name = String(nameText)
        guard !name.isEmpty else { throw .invalid("attribute has no name") }
        guard var value else {
            self = Self.flag(name) ?? .other(name: name, value: nil)
            return
        }
        if Self.whitespaceTolerant.contains(name) { value = SDPSyntax.foldingWhitespace(value) }
        switch name {
        case "group": self = .group(try SDPGroup(parsing: value))
        case "msid-semantic": self = .msidSemantic(try MsidSemantic(parsing: value))
        case "ice-ufrag": self = .iceUfrag(try SDPSyntax.token(value, "ice-ufrag"))
        case "ice-pwd": self = .icePwd(try SDPSyntax.token(value, "ice-pwd"))
        case "ice-options": self = .iceOptions(try SDPSyntax.tokens(value, "ice-options").map(String.init))
        case "fingerprint": self = .fingerprint(try Fingerprint(parsing: value))
        case "setup":
            guard let role = SetupRole(rawValue: String(value)) else { throw .invalid("unknown setup role '\(value)'") }
            self = .setup(role)
        case "mid": self = .mid(try SDPSyntax.token(value, "mid"))
        case "candidate": self = .candidate(try Candidate(parsing: value))
        case "rtpmap": self = .rtpmap(try RTPMap(parsing: value))
        case "fmtp": self = .fmtp(try FormatParameters(parsing: value))
        case "rtcp-fb": self = .rtcpFeedback(try RTCPFeedback(parsing: value))
        case "extmap": self = .extmap(try ExtMap(parsing: value))
        case "msid": self = .msid(try Msid(parsing: value))
        case "ssrc": self = .ssrc(try SSRCAttribute(parsing: value))
        case "ssrc-group": self = .ssrcGroup(try SSRCGroup(parsing: value))
        default: self = .other(name: name, value: String(value))
        }
    }

    /// The attributes whose values real stacks write with stray whitespace (trailing
    /// spaces, tabs, repeated spaces) and browsers read anyway: their values are folded
    /// (`SDPSyntax.foldingWhitespace`) before parsing, so a feature such as `nack` is never
    /// dropped for its spelling. The line's original text is kept for serialization.
    static let whitespaceTolerant: Set<String> = ["rtcp-fb", "fmtp", "rtpmap", "extmap", "ssrc", "candidate"]

    private static func flag(_ name: String) -> SDPAttribute? {
        switch name {
        case "ice-lite": return .iceLite
        case "rtcp-mux": return .rtcpMux
        case "rtcp-rsize": return .rtcpRsize
        case "end-of-candidates": return .endOfCandidates
        default: return MediaDirection(rawValue: name).map(SDPAttribute.direction)
        }
    }

    /// The attribute name, as after `a=`.
    public var name: String {
        switch self {
        case .group: return "group"
        case .msidSemantic: return "msid-semantic"
        case .iceLite: return "ice-lite"
        case .iceUfrag: return "ice-ufrag"
        case .icePwd: return "ice-pwd"
        case .iceOptions: return "ice-options"
        case .fingerprint: return "fingerprint"
        case .setup: return "setup"
        case .mid: return "mid"
        case .direction(let direction): return direction.rawValue
        case .rtcpMux: return "rtcp-mux"
        case .rtcpRsize: return "rtcp-rsize"
        case .candidate: return "candidate"
        case .endOfCandidates: return "end-of-candidates"
        case .rtpmap: return "rtpmap"
        case .fmtp: return "fmtp"
        case .rtcpFeedback: return "rtcp-fb"
        case .extmap: return "extmap"
        case .msid: return "msid"
        case .ssrc: return "ssrc"
        case .ssrcGroup: return "ssrc-group"
        case .other(let name, _): return name
        }
    }

    /// The text after the colon, or nil for flags.
    public var value: String? {
        switch self {
        case .iceLite, .direction, .rtcpMux, .rtcpRsize, .endOfCandidates: return nil
        case .group(let group): return group.description
        case .msidSemantic(let semantic): return semantic.description
        case .iceUfrag(let text), .icePwd(let text), .mid(let text): return text
        case .iceOptions(let options): return options.joined(separator: " ")
        case .fingerprint(let fingerprint): return fingerprint.description
        case .setup(let role): return role.rawValue
        case .candidate(let candidate): return candidate.attributeValue
        case .rtpmap(let map): return map.description
        case .fmtp(let parameters): return parameters.description
        case .rtcpFeedback(let feedback): return feedback.description
        case .extmap(let extmap): return extmap.description
        case .msid(let msid): return msid.description
        case .ssrc(let ssrc): return ssrc.description
        case .ssrcGroup(let group): return group.description
        case .other(_, let value): return value
        }
    }

    /// The canonical text after `a=`.
    public var description: String { value.map { "\(name):\($0)" } ?? name }
}
