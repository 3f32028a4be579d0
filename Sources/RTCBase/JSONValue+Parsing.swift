
extension JSONValue {
    /// Parses one JSON text (RFC 8259), surrounded by optional whitespace. Nesting deeper
    /// than `maxDepth` is refused so hostile input cannot exhaust the stack.
    public init(parsing text: some StringProtocol, maxDepth: Int = 64) throws(ParseError) {
        try self.init(parsing: Array(text.utf8), maxDepth: maxDepth)
    }

    public init(parsing bytes: [UInt8], maxDepth: Int = 64) throws(ParseError) {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        self = try parser.parseDocument()
    }
}

/// Recursive-descent JSON reader over UTF-8 bytes.
struct JSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(ParseError) -> JSONValue {
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw .invalid("JSON: text after the value at byte \(index)") }
        return value
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[index]) { index += 1 }
    }

    private func peek() throws(ParseError) -> UInt8 {
        guard index < bytes.count else { throw .truncated("JSON: unexpected end") }
        return bytes[index]
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws(ParseError) -> JSONValue {
        let literalBytes = Array(literal.utf8)
        guard bytes.count - index >= literalBytes.count, bytes[index..<index + literalBytes.count].elementsEqual(literalBytes) else {
            throw .invalid("JSON: bad literal at byte \(index)")
        }
        index += literalBytes.count
        return value
    }

    private mutating func parseValue(depth: Int) throws(ParseError) -> JSONValue {
        guard depth <= maxDepth else { throw ParseError(.tooLarge, "JSON nested deeper than \(maxDepth)") }
        skipWhitespace()
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        default: return try parseNumber()
        }
    }

    private mutating func parseObject(depth: Int) throws(ParseError) -> JSONValue {
        index += 1
        var members: [JSONValue.Member] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw .invalid("JSON: object key is not a string at byte \(index)") }
            let key = try parseString()
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw .invalid("JSON: missing colon at byte \(index)") }
            index += 1
            members.append(JSONValue.Member(key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "}") { return .object(members) }
            guard next == UInt8(ascii: ",") else { throw .invalid("JSON: expected , or } at byte \(index - 1)") }
        }
    }

    private mutating func parseArray(depth: Int) throws(ParseError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "]") { return .array(elements) }
            guard next == UInt8(ascii: ",") else { throw .invalid("JSON: expected , or ] at byte \(index - 1)") }
        }
    }

    /// RFC 8259 section 6: `-? int frac? exp?`; integers that fit stay exact.
    private mutating func parseNumber() throws(ParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let intStart = index
        try digits()
        guard bytes[intStart] != UInt8(ascii: "0") || index - intStart == 1 else { throw .invalid("JSON: leading zero at byte \(start)") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try digits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else { throw .invalid("JSON: number \(text) out of range") }
        return .double(value)
    }

    private mutating func digits() throws(ParseError) {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        guard index > start else { throw .invalid("JSON: expected a digit at byte \(index)") }
    }

    /// RFC 8259 section 7, including `\uXXXX` surrogate pairs; raw bytes must be UTF-8.
    private mutating func parseString() throws(ParseError) -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            let byte = try peek()
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw .invalid("JSON: string is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                let escape = try peek()
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0c)
                case UInt8(ascii: "n"): out.append(0x0a)
                case UInt8(ascii: "r"): out.append(0x0d)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out.append(contentsOf: try unicodeEscape())
                default: throw .invalid("JSON: bad escape at byte \(index - 1)")
                }
            case 0x00..<0x20:
                throw .invalid("JSON: control character in string at byte \(index - 1)")
            default:
                out.append(byte)
            }
        }
    }

    private mutating func hex4() throws(ParseError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw .truncated("JSON: short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Hex.value(bytes[index]) else { throw .invalid("JSON: bad \\u escape") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func unicodeEscape() throws(ParseError) -> [UInt8] {
        var scalar = try hex4()
        if (0xd800..<0xdc00).contains(scalar) {
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw .invalid("JSON: lone high surrogate")
            }
            index += 2
            let low = try hex4()
            guard (0xdc00..<0xe000).contains(low) else { throw .invalid("JSON: bad low surrogate") }
            scalar = 0x10000 + (scalar - 0xd800) << 10 + (low - 0xdc00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw .invalid("JSON: lone low surrogate") }
        return Array(String(Character(unicode)).utf8)
    }
}
