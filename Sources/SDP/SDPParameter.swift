/// A name with an optional value: an `a=fmtp` item (`apt=96`; RED's bare `111/111` has no
/// value), a candidate extension (`network-id 1`) or an `a=ssrc` attribute (`cname:x`).
/// `description` prints the fmtp form.
public struct SDPParameter: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var value: String?

    public init(_ name: String, _ value: String?) {
        self.name = name
        self.value = value
    }

    public var description: String { value.map { "\(name)=\($0)" } ?? name }
}

extension [SDPParameter] {
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
            append(SDPParameter(name, value))
        }
    }
}
