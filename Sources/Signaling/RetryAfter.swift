/// A `Retry-After` value (RFC 9110 section 10.2.3): a delay in seconds, or an HTTP date
/// kept as text, since sans-IO code has no wall clock to subtract it from.
public enum RetryAfter: Hashable, Sendable, CustomStringConvertible {
    case seconds(Int)
    case date(String)

    /// Reads the field value; nil when it is empty.
    public init?(fieldValue: String) {
        let text = fieldValue.trimmingCharacters(in: " \t")
        guard !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // More than nine digits is beyond any sensible wait: clamp rather than overflow.
            self = .seconds(text.count > 9 ? 999_999_999 : Int(text) ?? 0)
        } else {
            self = .date(String(text.prefix(64)))
        }
    }

    public var description: String {
        switch self {
        case .seconds(let seconds): "retry after \(seconds) s"
        case .date(let date): "retry after \(date)"
        }
    }
}

extension String {
    /// The text without leading and trailing characters from `set`.
    func trimmingCharacters(in set: String) -> Substring {
        var start = startIndex
        var end = endIndex
        while start < end, set.contains(self[start]) { start = index(after: start) }
        while end > start, set.contains(self[index(before: end)]) { end = index(before: end) }
        return self[start..<end]
    }
}
