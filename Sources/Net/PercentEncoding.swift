import RTCBase

/// Percent-encoding of URI components (RFC 3986 section 2.1).
///
/// Encoding keeps only the unreserved characters (RFC 3986 section 2.3) plus whatever the
/// caller allows; decoding rejects a `%` that is not followed by two hex digits.
public enum PercentEncoding {
    /// Characters RFC 3986 section 2.3 never requires to be encoded: `A-Z a-z 0-9 - . _ ~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// `text` with every byte of its UTF-8 form encoded as `%XX`, except unreserved
    /// characters and the ASCII characters in `allowed` (for a path, pass `"/"`).
    public static func encode(_ text: String, allowing allowed: String = "") -> String {
        let extra = Set(allowed.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || extra.contains(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(Hex.digit(byte >> 4))
                out.append(Hex.digit(byte & 0x0f))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The decoded text, or nil when a `%` is not followed by two hex digits or the
    /// result is not UTF-8. With `plusAsSpace` (form encoding), `+` becomes a space.
    public static func decode(_ text: String, plusAsSpace: Bool = false) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(Hex.value), let low = iterator.next().flatMap(Hex.value) else {
                    return nil
                }
                out.append(high << 4 | low)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else {
                out.append(byte)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// `name=value` pairs of a query string, decoded; nil if any part is badly encoded.
    /// `a&b=` gives `[("a", ""), ("b", "")]`.
    public static func queryItems(_ query: String) -> [(name: String, value: String)]? {
        var items: [(name: String, value: String)] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(String(pieces[0]), plusAsSpace: true),
                let value = decode(pieces.count > 1 ? String(pieces[1]) : "", plusAsSpace: true)
            else { return nil }
            items.append((name, value))
        }
        return items
    }

    /// A query string from pairs, each name and value encoded.
    public static func query(_ items: [(name: String, value: String)]) -> String {
        items.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }
}
