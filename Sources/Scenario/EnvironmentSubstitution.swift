import Foundation

/// A `${NAME}` with no value and no default.
public struct MissingVariableError: Error, Equatable, CustomStringConvertible {
    public let name: String
    public let line: Int

    public var description: String {
        "line \(line): ${\(name)} is not set and has no default; set it or write ${\(name):-default}"
    }
}

/// Replaces `${NAME}` and `${NAME:-default}` in scenario text before it is parsed, so
/// one file runs on a laptop, in docker-compose and in CI, and numbers work too
/// (`count: ${PEERS:-20}`). `$$` stands for a literal `$`. The default may not contain `}`.
public enum EnvironmentSubstitution {
    public static func apply(to text: String, environment: [String: String]) throws(MissingVariableError) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var line = 1
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            let before = rest[..<dollar]
            line += before.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
            output += before
            let afterDollar = rest[rest.index(after: dollar)...]
            if afterDollar.hasPrefix("$") {
                output += "$"
                rest = afterDollar.dropFirst()
                continue
            }
            guard afterDollar.hasPrefix("{"), let close = afterDollar.firstIndex(of: "}") else {
                output += "$"
                rest = afterDollar
                continue
            }
            let body = afterDollar[afterDollar.index(after: afterDollar.startIndex)..<close]
            let name: Substring
            let fallback: Substring?
            if let separator = body.range(of: ":-") {
                name = body[..<separator.lowerBound]
                fallback = body[separator.upperBound...]
            } else {
                name = body
                fallback = nil
            }
            if let value = environment[String(name)], !value.isEmpty {
                output += value
            } else if let fallback {
                output += fallback
            } else {
                throw MissingVariableError(name: String(name), line: line)
            }
            rest = afterDollar[afterDollar.index(after: close)...]
        }
        output += rest
        return output
    }
}
