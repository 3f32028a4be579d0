import RTCBase

/// Feeds a parser many random and mutated inputs, reproducibly.
///
/// Half of the inputs are mutations of valid seeds (bit flips, byte changes, truncation,
/// extension, spliced ranges), which reach deep into a parser; the other half are random
/// bytes. The body must never trap; a parser that throws or returns nil is doing its job.
public struct Fuzzer {
    public var generator: SeededGenerator
    public let seeds: [[UInt8]]
    public let maxLength: Int

    public init(seeds: [[UInt8]], seed: UInt64 = 0x5eed, maxLength: Int = 2048) {
        self.generator = SeededGenerator(seed: seed)
        self.seeds = seeds.filter { !$0.isEmpty }
        self.maxLength = maxLength
    }

    /// Runs `body` on `iterations` inputs.
    public mutating func run(iterations: Int, _ body: ([UInt8]) -> Void) {
        for index in 0..<iterations {
            body(index % 2 == 0 && !seeds.isEmpty ? mutated() : random())
        }
    }

    /// Random bytes of a random length up to `maxLength`.
    public mutating func random() -> [UInt8] {
        let length = Int.random(in: 0...maxLength, using: &generator)
        return (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// One valid seed with one to four random mutations.
    public mutating func mutated() -> [UInt8] {
        var input = seeds[Int.random(in: 0..<seeds.count, using: &generator)]
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            mutate(&input)
        }
        return input
    }

    private mutating func mutate(_ input: inout [UInt8]) {
        guard !input.isEmpty else {
            input = random()
            return
        }
        let position = Int.random(in: 0..<input.count, using: &generator)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:
            input[position] ^= 1 << UInt8.random(in: 0...7, using: &generator)
        case 1:
            input[position] = [0, 0xff, 0x7f, 0x80, 1].randomElement(using: &generator)!
        case 2:
            input.removeSubrange(position...)
        case 3:
            let extra = Int.random(in: 1...64, using: &generator)
            input.append(contentsOf: (0..<extra).map { _ in UInt8.random(in: 0...255, using: &generator) })
        case 4:
            let other = seeds[Int.random(in: 0..<seeds.count, using: &generator)]
            let start = Int.random(in: 0..<other.count, using: &generator)
            let end = Int.random(in: start...other.count, using: &generator)
            input.replaceSubrange(position..<input.count, with: other[start..<end])
        default:
            input[position] = UInt8.random(in: 0...255, using: &generator)
        }
        if input.count > maxLength { input.removeSubrange(maxLength...) }
    }
}
