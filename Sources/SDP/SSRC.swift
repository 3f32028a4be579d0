import RTCBase

/// One `a=ssrc` line (RFC 5576 4.1): `<ssrc> <attribute>[:<value>]`.
public struct SSRCAttribute: Sendable, Hashable, CustomStringConvertible {
    public var ssrc: UInt32
    public var name: String
    public var value: String?

    public init(ssrc: UInt32, name: String, value: String?) {
        self.ssrc = ssrc
        self.name = name
        self.value = value
    }

    public init(parsing text: Substring) throws(ParseError) {
        let (id, attribute) = try SDPSyntax.splitSpace(text, "ssrc")
        ssrc = try SDPSyntax.integer(id, "ssrc")
        let (name, value) = SDPSyntax.splitColon(attribute)
        guard !name.isEmpty else { throw .invalid("ssrc attribute has no name") }
        self.name = String(name)
        self.value = value.map(String.init)
    }

    public var description: String { "\(ssrc) " + (value.map { "\(name):\($0)" } ?? name) }
}

/// All `a=ssrc` lines of one SSRC, in order: `cname`, `msid`, and the legacy `mslabel`
/// and `label` that SRS's play answers carry.
public struct SSRCDescription: Sendable, Hashable {
    public var ssrc: UInt32
    public var attributes: [SDPParameter]

    public init(ssrc: UInt32, attributes: [SDPParameter]) {
        self.ssrc = ssrc
        self.attributes = attributes
    }

    public var cname: String? { attributes.value("cname") }
    public var msid: Msid? { attributes.value("msid").flatMap { try? Msid(parsing: Substring($0)) } }
    public var mslabel: String? { attributes.value("mslabel") }
    public var label: String? { attributes.value("label") }
}

/// `a=ssrc-group` (RFC 5576 4.2): `FID <primary> <rtx>` (RFC 4588), `SIM <ssrc>...`.
public struct SSRCGroup: Sendable, Hashable, CustomStringConvertible {
    public var semantics: String
    public var ssrcs: [UInt32]

    public init(semantics: String, ssrcs: [UInt32]) {
        self.semantics = semantics
        self.ssrcs = ssrcs
    }

    public init(parsing text: Substring) throws(ParseError) {
        let fields = try SDPSyntax.tokens(text, "ssrc-group")
        semantics = String(fields[0])
        var ssrcs: [UInt32] = []
        for field in fields.dropFirst() { ssrcs.append(try SDPSyntax.integer(field, "ssrc")) }
        guard !ssrcs.isEmpty else { throw .invalid("ssrc-group \(semantics) lists no SSRC") }
        self.ssrcs = ssrcs
    }

    public var description: String { ([semantics] + ssrcs.map(String.init)).joined(separator: " ") }
}
