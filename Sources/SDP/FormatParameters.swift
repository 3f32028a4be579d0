import RTCBase

/// `a=fmtp` (RFC 8866 6.15): format-specific parameters, `<pt> a=1;b=2`.
public struct FormatParameters: Sendable, Hashable, CustomStringConvertible {
    public var payloadType: UInt8
    public var parameters: [SDPParameter]

    public init(payloadType: UInt8, parameters: [SDPParameter]) {
        self.payloadType = payloadType
        self.parameters = parameters
    }

    public init(parsing text: Substring) throws(ParseError) {
        let (pt, list) = try SDPSyntax.splitSpace(text, "fmtp")
        payloadType = try SDPSyntax.payloadType(pt)
        parameters = Self.parseList(list)
    }

    /// Splits `a=1;b=2` (spaces around items tolerated) into parameters in order.
    public static func parseList(_ list: Substring) -> [SDPParameter] {
        list.split(separator: ";").compactMap { item in
            let trimmed = item.drop(while: { $0 == " " })
            guard !trimmed.isEmpty else { return nil }
            guard let equals = SDPSyntax.firstIndex(of: 0x3d, in: trimmed) else { return SDPParameter(String(trimmed), nil) }
            return SDPParameter(String(trimmed[..<equals]), String(trimmed[trimmed.utf8.index(after: equals)...]))
        }
    }

    public var description: String {
        "\(payloadType) " + parameters.map(\.description).joined(separator: ";")
    }
}
