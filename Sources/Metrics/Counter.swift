/// A count that only grows (NACKs sent, failed peers, socket drops). Merging adds.
///
/// Encodes as a bare integer.
public struct Counter: Hashable, Sendable, Codable {
    public private(set) var value: Int

    public init(_ value: Int = 0) { self.value = value }

    /// Adds `amount` (>= 0; a negative amount is ignored, a counter never goes back).
    public mutating func increment(by amount: Int = 1) {
        if amount > 0 { value += amount }
    }

    /// Adds the other counter's value (counts from several workers).
    public mutating func merge(_ other: Counter) { value += other.value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Int.self)
        guard value >= 0 else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a counter must be >= 0, got \(value)")
        }
        self.value = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
