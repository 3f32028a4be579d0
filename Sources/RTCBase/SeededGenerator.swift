/// A small, fast, seedable random number generator (SplitMix64).
///
/// Every random choice in rtcswarm (impairment, ICE credentials in tests, jitter, fuzz
/// inputs) comes from a seeded generator so that a run can be repeated exactly.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A seed for one of many independent streams of `seed`, told apart by `values` (a
    /// peer's group, index and side; a role): each value goes through SplitMix64's
    /// finalizer, so seeds that differ in any value share no part of their sequences
    /// (adding offsets to one seed made one peer's offset another's).
    public static func mixing(_ seed: UInt64, _ values: UInt64...) -> UInt64 {
        values.reduce(seed) { mixed, value in
            var spread = SeededGenerator(seed: value)
            var generator = SeededGenerator(seed: mixed ^ spread.next())
            return generator.next()
        }
    }

    /// A uniformly distributed value in [0, 1).
    @inlinable
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
