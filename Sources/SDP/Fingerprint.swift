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
        var bytes: [UInt8] = []
        for pair in value.split(separator: ":", omittingEmptySubsequences: false) {
            guard pair.utf8.count == 2, let byte = UInt8(pair, radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    /// True when both name the same hash (case-insensitively) and the same digest bytes.
    public func matches(_ other: Fingerprint) -> Bool {
        hashFunction.lowercased() == other.hashFunction.lowercased() && digest != nil && digest == other.digest
    }

    public var description: String { "\(hashFunction) \(value)" }
}
