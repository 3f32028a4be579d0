import RTCBase

/// One `name=value` item of an `a=fmtp` line; a bare value (RED's `111/111`) has no name.
public struct FormatParameter: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var value: String?

    public init(_ name: String, _ value: String?) {
        self.name = name
        self.value = value
    }

    public var description: String { value.map { "\(name)=\($0)" } ?? name }
}

/// `a=fmtp` (RFC 8866 6.15): format-specific parameters, `<pt> a=1;b=2`.
public struct FormatParameters: Sendable, Hashable, CustomStringConvertible {
    public var payloadType: UInt8
    public var parameters: [FormatParameter]

    public init(payloadType: UInt8, parameters: [FormatParameter]) {
        self.payloadType = payloadType
        self.parameters = parameters
    }

    public init(parsing text: Substring) throws(ParseError) {
        let (pt, list) = try SDPSyntax.splitSpace(text, "fmtp")
        payloadType = try SDPSyntax.payloadType(pt)
        parameters = Self.parseList(list)
    }

    /// Splits `a=1;b=2` (spaces around items tolerated) into parameters in order.
    public static func parseList(_ list: Substring) -> [FormatParameter] {
        list.split(separator: ";").compactMap { item in
            let trimmed = item.drop(while: { $0 == " " })
            guard !trimmed.isEmpty else { return nil }
            guard let equals = trimmed.firstIndex(of: "=") else { return FormatParameter(String(trimmed), nil) }
            return FormatParameter(String(trimmed[..<equals]), String(trimmed[trimmed.index(after: equals)...]))
        }
    }

    public var description: String {
        "\(payloadType) " + parameters.map(\.description).joined(separator: ";")
    }
}

extension [FormatParameter] {
    /// The value of the first parameter called `name` (case-insensitive, RFC 6184 8.1).
    public func value(_ name: String) -> String? {
        let wanted = name.lowercased()
        return first { $0.name.lowercased() == wanted }?.value
    }

    /// Sets or adds `name`, keeping the position of an existing entry.
    public mutating func set(_ name: String, _ value: String) {
        let wanted = name.lowercased()
        if let index = firstIndex(where: { $0.name.lowercased() == wanted }) {
            self[index].value = value
        } else {
            append(FormatParameter(name, value))
        }
    }
}
