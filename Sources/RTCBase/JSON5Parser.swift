import Foundation

/// A syntax error in a JSON5 file, with where it is.
public struct JSON5SyntaxError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Parses JSON5 (https://spec.json5.org): JSON plus comments, unquoted keys, single
/// quotes, trailing commas, hexadecimal and leading/trailing-dot numbers, Infinity and NaN.
///
/// Foundation's JSON5 reader says only "not valid JSON" on a mistake; this one says the
/// line and column, which is what a person editing a scenario needs.
public struct JSON5Parser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    private static let maxDepth = 64

    public static func parse(_ text: String) throws(JSON5SyntaxError) -> JSONValue {
        var parser = JSON5Parser(bytes: Array(text.utf8))
        try parser.skipWhitespace()
        let value = try parser.parseValue()
        try parser.skipWhitespace()
        if parser.index < parser.bytes.count { throw parser.error("unexpected \(parser.describeCurrent()) after the document") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> JSON5SyntaxError {
        JSON5SyntaxError(line: line, column: index - lineStart + 1, message: message)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func describeCurrent() -> String {
        guard let byte = current else { return "end of file" }
        let end = bytes[index...].prefix { !(" \t\r\n,:]}".utf8.contains($0)) }
        let token = String(decoding: end.prefix(20), as: UTF8.self)
        return token.isEmpty ? "'\(String(decoding: [byte], as: UTF8.self))'" : "'\(token)'"
    }

    private mutating func advance() {
        if current == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private mutating func skipWhitespace() throws(JSON5SyntaxError) {
        while let byte = current {
            if byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d {
                advance()
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while let next = current, next != 0x0a { advance() }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let start = error("unterminated /* comment")
                advance(); advance()
                while true {
                    guard let next = current else { throw start }
                    if next == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                        advance(); advance()
                        break
                    }
                    advance()
                }
            } else {
                return
            }
        }
    }

    private mutating func parseValue() throws(JSON5SyntaxError) -> JSONValue {
        guard let byte = current else { throw error("expected a value, found end of file") }
        switch byte {
        case UInt8(ascii: "{"): return try nested { (p: inout JSON5Parser) throws(JSON5SyntaxError) in try p.parseObject() }
        case UInt8(ascii: "["): return try nested { (p: inout JSON5Parser) throws(JSON5SyntaxError) in try p.parseArray() }
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try parseString())
        default:
            if let word = try parseWord() { return word }
            return try parseNumber()
        }
    }

    private mutating func nested(_ body: (inout JSON5Parser) throws(JSON5SyntaxError) -> JSONValue) throws(JSON5SyntaxError) -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth) levels") }
        return try body(&self)
    }

    private mutating func parseObject() throws(JSON5SyntaxError) -> JSONValue {
        advance()  // {
        var members: [JSONValue.Member] = []
        while true {
            try skipWhitespace()
            if current == UInt8(ascii: "}") {
                advance()
                return .object(members)
            }
            let key: String
            if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
                key = try parseString()
            } else {
                key = try parseIdentifier()
            }
            if members.contains(where: { $0.key == key }) { throw error("duplicate key \"\(key)\"") }
            try skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\", found \(describeCurrent())") }
            advance()
            try skipWhitespace()
            members.append(JSONValue.Member(key, try parseValue()))
            try skipWhitespace()
            if current == UInt8(ascii: ",") {
                advance()
            } else if current != UInt8(ascii: "}") {
                throw error("expected ',' or '}' after the value of \"\(key)\", found \(describeCurrent())")
            }
        }
    }

    private mutating func parseArray() throws(JSON5SyntaxError) -> JSONValue {
        advance()  // [
        var elements: [JSONValue] = []
        while true {
            try skipWhitespace()
            if current == UInt8(ascii: "]") {
                advance()
                return .array(elements)
            }
            elements.append(try parseValue())
            try skipWhitespace()
            if current == UInt8(ascii: ",") {
                advance()
            } else if current != UInt8(ascii: "]") {
                throw error("expected ',' or ']' in a list, found \(describeCurrent())")
            }
        }
    }

    private static func isIdentifierByte(_ byte: UInt8, first: Bool) -> Bool {
        (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "$") || byte >= 0x80 || (!first && byte >= 0x30 && byte <= 0x39)
    }

    private mutating func parseIdentifier() throws(JSON5SyntaxError) -> String {
        let start = index
        while let byte = current, Self.isIdentifierByte(byte, first: index == start) { advance() }
        guard index > start else { throw error("expected a key, found \(describeCurrent())") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// true, false, null, Infinity, NaN (signed numbers are handled by parseNumber).
    private mutating func parseWord() throws(JSON5SyntaxError) -> JSONValue? {
        guard let byte = current, Self.isIdentifierByte(byte, first: true) else { return nil }
        let start = index
        let word = try parseIdentifier()
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        case "Infinity": return .double(.infinity)
        case "NaN": return .double(.nan)
        default:
            index = start
            throw error("unexpected \(describeCurrent()): strings need quotes")
        }
    }

    private mutating func parseNumber() throws(JSON5SyntaxError) -> JSONValue {
        let start = index
        var negative = false
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
            negative = current == UInt8(ascii: "-")
            advance()
        }
        if current == UInt8(ascii: "I") {
            guard try parseIdentifier() == "Infinity" else { index = start; throw error("unexpected \(describeCurrent())") }
            return .double(negative ? -.infinity : .infinity)
        }
        if current == UInt8(ascii: "0"), index + 1 < bytes.count, bytes[index + 1] | 0x20 == UInt8(ascii: "x") {
            advance(); advance()
            let digitsStart = index
            while let byte = current, (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66) { advance() }
            guard let value = Int64(String(decoding: bytes[digitsStart..<index], as: UTF8.self), radix: 16) else {
                throw error("malformed hexadecimal number")
            }
            return .integer(negative ? -value : value)
        }
        while let byte = current, (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: ".")
            || byte | 0x20 == UInt8(ascii: "e") || ((byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"))
                && index > start && bytes[index - 1] | 0x20 == UInt8(ascii: "e")) {
            advance()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if let integer = Int64(text) { return .integer(integer) }
        let normalized = text.replacingOccurrences(of: "+", with: "")
        let withLeadingZero = normalized.hasPrefix(".") ? "0" + normalized
            : normalized.hasPrefix("-.") ? "-0" + normalized.dropFirst() : normalized
        if text.contains(where: { $0.isNumber }), let number = Double(withLeadingZero) { return .double(number) }
        index = start
        throw error("expected a value, found \(describeCurrent())")
    }

    private mutating func parseString() throws(JSON5SyntaxError) -> String {
        guard let quote = current else { throw error("expected a string") }
        let opening = error("unterminated string")
        advance()
        var scalars = [UInt8]()
        while true {
            guard let byte = current else { throw opening }
            if byte == quote {
                advance()
                return String(decoding: scalars, as: UTF8.self)
            }
            if byte == 0x0a { throw error("line break inside a string (end it with \\ to continue)") }
            if byte == UInt8(ascii: "\\") {
                advance()
                guard let escaped = current else { throw opening }
                advance()
                switch escaped {
                case UInt8(ascii: "n"): scalars.append(0x0a)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "r"): scalars.append(0x0d)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0c)
                case UInt8(ascii: "0"): scalars.append(0)
                case 0x0a: break  // line continuation
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                          let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                          let scalar = Unicode.Scalar(code)
                    else { throw error("malformed \\u escape") }
                    index += 4
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: scalars.append(escaped)
                }
                continue
            }
            scalars.append(byte)
            advance()
        }
    }
}
