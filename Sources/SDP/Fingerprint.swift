import RTCBase

/// `a=fingerprint` (RFC 8122 5): the hash of the DTLS certificate, `sha-256 AB:CD:...`.
public struct Fingerprint: Sendable, Hashable, CustomStringConvertible {
    /// Hash function name as written (`sha-256`); compare case-insensitively.
    public var hashFunction: String
    /// Upper-case hex bytes separated by colons.
    public var value: String

    public init(hashFunction: String, value: String) {
        self.hashFunction = hashFunction
        self.value = value
    }

    /// Formats `digest` as upper-case colon-separated hex (RFC 8122 5).
    public init(hashFunction: String = "sha-256", digest: [UInt8]) {
        let hex: [Character] = Array("0123456789ABCDEF")
        let pairs = digest.map { String([hex[Int($0 >> 4)], hex[Int($0 & 15)]]) }
        self.init(hashFunction: hashFunction, value: pairs.joined(separator: ":"))
    }

    public init(parsing text: Substring) throws(ParseError) {
        let (hash, value) = try SDPSyntax.splitSpace(text, "fingerprint")
        hashFunction = try SDPSyntax.token(hash, "fingerprint hash function")
        self.value = try SDPSyntax.token(value, "fingerprint value")
        guard digest != nil else { throw .invalid("fingerprint '\(value)' is not colon-separated hex") }
    }

    /// The digest bytes, or nil when `value` is not colon-separated hex pairs.
    public var digest: [UInt8]? {
        let text = Array(value.utf8)
        guard text.count % 3 == 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 3 + 1)
        var index = 0
        while index + 1 < text.count {
            guard let high = Hex.value(text[index]), let low = Hex.value(text[index + 1]),
                index + 2 == text.count || text[index + 2] == 0x3a
            else { return nil }
            bytes.append(high << 4 | low)
            index += 3
        }
        return bytes
    }

    /// True when both name the same hash (case-insensitively) and the same digest bytes.
    public func matches(_ other: Fingerprint) -> Bool {
        hashFunction.lowercased() == other.hashFunction.lowercased() && digest != nil && digest == other.digest
    }

    public var description: String { "\(hashFunction) \(value)" }
}
