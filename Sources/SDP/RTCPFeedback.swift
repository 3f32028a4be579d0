import RTCBase

/// An RTCP feedback mechanism (RFC 4585 4.2, RFC 5104 7.1): `nack`, `nack pli`, `ccm fir`,
/// `goog-remb`, `transport-cc`.
public struct FeedbackMechanism: Sendable, Hashable, CustomStringConvertible {
    public var type: String
    public var parameter: String?

    public init(_ type: String, _ parameter: String? = nil) {
        self.type = type
        self.parameter = parameter
    }

    /// Generic NACK (RFC 4585 6.2.1).
    public static let nack = FeedbackMechanism("nack")
    /// Picture Loss Indication (RFC 4585 6.3.1).
    public static let pli = FeedbackMechanism("nack", "pli")
    /// Full Intra Request (RFC 5104 4.3.1).
    public static let fir = FeedbackMechanism("ccm", "fir")
    /// Receiver Estimated Maximum Bitrate (draft-alvestrand-rmcat-remb).
    public static let remb = FeedbackMechanism("goog-remb")
    /// Transport-wide congestion control feedback (draft-holmer-rmcat).
    public static let transportCC = FeedbackMechanism("transport-cc")

    public var description: String { parameter.map { "\(type) \($0)" } ?? type }
}

/// `a=rtcp-fb` (RFC 4585 4.2): `<pt> <mechanism>` or `* <mechanism>` for every format.
public struct RTCPFeedback: Sendable, Hashable, CustomStringConvertible {
    /// nil stands for the wildcard `*`.
    public var payloadType: UInt8?
    public var mechanism: FeedbackMechanism

    public init(payloadType: UInt8?, mechanism: FeedbackMechanism) {
        self.payloadType = payloadType
        self.mechanism = mechanism
    }

    public init(parsing text: Substring) throws(ParseError) {
        let (pt, rest) = try SDPSyntax.splitSpace(text, "rtcp-fb")
        payloadType = pt == "*" ? nil : try SDPSyntax.payloadType(pt)
        if let space = SDPSyntax.firstIndex(of: 0x20, in: rest) {
            mechanism = FeedbackMechanism(String(rest[..<space]), String(rest[rest.utf8.index(after: space)...]))
        } else {
            mechanism = FeedbackMechanism(String(rest))
        }
    }

    public var description: String { "\(payloadType.map(String.init) ?? "*") \(mechanism)" }
}
