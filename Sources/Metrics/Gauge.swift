/// A level that goes up and down (connected peers). Each worker holds its own share of
/// the whole, so merging gauges adds their values.
///
/// Encodes as a bare number.
public struct Gauge: Hashable, Sendable, Codable {
    public private(set) var value: Double

    public init(_ value: Double = 0) { self.value = value }

    /// Sets the current level.
    public mutating func set(_ value: Double) { self.value = value }

    /// Moves the level by `delta` (a peer connects: +1; it leaves: -1).
    public mutating func add(_ delta: Double) { value += delta }

    /// Adds the other worker's level.
    public mutating func merge(_ other: Gauge) { value += other.value }

    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
