import RTCBase

/// The ICE servers a WHIP or WHEP endpoint suggests in `Link` headers (RFC 9725 section
/// 4.6, link syntax of RFC 8288 section 3):
/// `Link: <turn:turn.example.net?transport=udp>; rel="ice-server"; username="u"; credential="p"; credential-type="password"`.
public enum IceServerLink {
    /// The `rel="ice-server"` links in every `Link` field value; other links and
    /// malformed ones are skipped.
    public static func parse(_ fieldValues: [String]) -> [IceServerConfig] {
        fieldValues.flatMap { value in
            var parser = LinkValueParser(Array(value.utf8))
            return parser.links().compactMap { link -> IceServerConfig? in
                let relations = link.parameters["rel"]?.split(separator: " ").map { $0.lowercased() } ?? []
                guard relations.contains("ice-server") else { return nil }
                return IceServerConfig(urls: [link.target], username: link.parameters["username"],
                                     credential: link.parameters["credential"],
                                     credentialType: link.parameters["credential-type"])
            }
        }
    }
}

/// Reads `<target>; name=value; name="quoted", <target>...` without trapping on any input.
private struct LinkValueParser {
    struct Link {
        var target: String
        var parameters: [String: String]
    }

    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func links() -> [Link] {
        var result: [Link] = []
        while true {
            skip(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: ",") })
            guard peek() != nil else { return result }
            guard let target = readTarget() else {
                skip(while: { $0 != UInt8(ascii: ",") })
                continue
            }
            var parameters: [String: String] = [:]
            while true {
                skip(while: Self.isSpace)
                guard peek() == UInt8(ascii: ";") else { break }
                index += 1
                skip(while: Self.isSpace)
                let name = text(while: { !Self.isSpace($0) && $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") })
                skip(while: Self.isSpace)
                var value = ""
                if peek() == UInt8(ascii: "=") {
                    index += 1
                    skip(while: Self.isSpace)
                    value = peek() == UInt8(ascii: "\"") ? readQuoted() : text(while: { !Self.isSpace($0) && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") })
                }
                // RFC 8288 section 3: only the first occurrence of a parameter counts.
                if !name.isEmpty, parameters[name.lowercased()] == nil { parameters[name.lowercased()] = value }
            }
            result.append(Link(target: target, parameters: parameters))
            // Anything else up to the next comma is junk: skip it.
            skip(while: { $0 != UInt8(ascii: ",") })
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skip(while predicate: (UInt8) -> Bool) {
        while let byte = peek(), predicate(byte) { index += 1 }
    }

    private mutating func text(while predicate: (UInt8) -> Bool) -> String {
        let start = index
        skip(while: predicate)
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func readTarget() -> String? {
        guard peek() == UInt8(ascii: "<") else { return nil }
        index += 1
        let target = text(while: { $0 != UInt8(ascii: ">") })
        guard peek() == UInt8(ascii: ">") else { return nil }
        index += 1
        return target
    }

    /// A quoted-string (RFC 9110 section 5.6.4) with backslash escapes.
    private mutating func readQuoted() -> String {
        index += 1
        var out: [UInt8] = []
        while let byte = peek() {
            index += 1
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\"), let next = peek() {
                index += 1
                out.append(next)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
