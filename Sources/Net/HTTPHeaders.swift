/// An ordered list of HTTP fields (RFC 9110 section 5) with case-insensitive lookup.
///
/// Order and spelling are kept as received or added, so a message serializes back to the
/// same bytes; lookups compare names without regard to ASCII case.
public struct HTTPHeaders: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Field: Hashable, Sendable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field] = []

    public init() {}

    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        fields.first { HTTPHeaders.equalNames($0.name, name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { HTTPHeaders.equalNames($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` by one with `value`.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { HTTPHeaders.equalNames($0.name, name) }
    }

    /// Whether the comma-separated list in the fields named `name` holds `token`,
    /// compared without case (RFC 9110 section 5.6.1), e.g. `Connection: keep-alive, Upgrade`.
    public func hasToken(_ token: String, in name: String) -> Bool {
        tokens(name).contains { HTTPHeaders.equalNames($0, token) }
    }

    /// The comma-separated elements of every field named `name`, trimmed.
    public func tokens(_ name: String) -> [String] {
        values(name).flatMap { value in
            value.split(separator: ",").map { String($0.trimmingASCIISpaces()) }.filter { !$0.isEmpty }
        }
    }

    /// ASCII case-insensitive comparison of two field names.
    public static func equalNames(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lowerASCII($0) == lowerASCII($1) }
    }

    static func lowerASCII(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Writes `Name: value\r\n` for every field.
    func write(into out: inout [UInt8]) {
        for field in fields {
            out.append(contentsOf: field.name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's OWS).
    func trimmingASCIISpaces() -> SubSequence {
        var start = startIndex
        var end = endIndex
        while start < end, self[start] == " " || self[start] == "\t" { start = index(after: start) }
        while end > start, self[index(before: end)] == " " || self[index(before: end)] == "\t" { end = index(before: end) }
        return self[start..<end]
    }
}
