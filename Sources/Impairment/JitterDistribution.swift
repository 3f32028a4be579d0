#if canImport(Glibc)
import Glibc
#endif
import RTCBase

/// How the delay variation added to each packet is distributed.
///
/// With `delay_ms = D` and `jitter_ms = J`, a packet's one-way delay is `D + X` with:
///
/// | `jitter_distribution` | `X` | mean of `D + X` | standard deviation |
/// |---|---|---|---|
/// | `uniform` (default, as netem) | uniform on `[-J, +J]` | `D` | `J / sqrt(3)` |
/// | `normal` | normal, mean 0, standard deviation `J` | `D` (when `D >= 4 J`) | `J` |
///
/// A total below zero is raised to zero (a packet never leaves before it was sent), which
/// only shifts the figures when `D < J` (uniform) or `D < 4 J` (normal). Without
/// reordering, delivery times are then raised to keep send order (see `ImpairedLink`).
public enum JitterDistribution: String, Hashable, Sendable, Codable, CaseIterable {
    case uniform
    case normal
}

/// Draws jitter samples; keeps the spare value Box-Muller yields.
struct JitterSampler: Sendable {
    private var spareNormal: Double?

    init() {}

    /// One sample of `X` in the unit of `jitter` (see `JitterDistribution`).
    mutating func sample(_ distribution: JitterDistribution, jitter: Double, using generator: inout SeededGenerator) -> Double {
        switch distribution {
        case .uniform:
            return (2 * generator.nextUnit() - 1) * jitter
        case .normal:
            return standardNormal(using: &generator) * jitter
        }
    }

    /// Box-Muller: two uniforms give two independent standard normals.
    private mutating func standardNormal(using generator: inout SeededGenerator) -> Double {
        if let spare = spareNormal {
            spareNormal = nil
            return spare
        }
        let u1 = 1 - generator.nextUnit()  // in (0, 1], so log is finite
        let u2 = generator.nextUnit()
        let radius = (-2 * log(u1)).squareRoot()
        let angle = 2 * Double.pi * u2
        spareNormal = radius * sin(angle)
        return radius * cos(angle)
    }
}
