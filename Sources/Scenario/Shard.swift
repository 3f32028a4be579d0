/// One of N machines (or pods) that share a scenario: shard `index` of `count`, numbered
/// from 0 as a Kubernetes Indexed Job numbers its pods (`JOB_COMPLETION_INDEX`).
public struct Shard: Equatable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// The whole scenario on one machine.
    public static let whole = Shard(uncheckedIndex: 0, count: 1)

    /// The most shards a run may have: far more machines than any test needs, few enough
    /// that a typo (`--shard 1/10000000`) is caught.
    public static let maxCount = 10_000

    public var description: String { "\(index)/\(count)" }

    init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Checks a shard given as numbers; `source` names where they came from in the message.
    public init(index: Int, count: Int, source: String) throws(ShardError) {
        guard (1...Self.maxCount).contains(count) else {
            throw ShardError("\(source): the number of shards must be from 1 to \(Self.maxCount), not \(count)")
        }
        guard (0..<count).contains(index) else {
            throw ShardError("\(source): with \(count) shard(s) the index must be from 0 to \(count - 1) "
                             + "(shards are numbered from 0, like JOB_COMPLETION_INDEX), not \(index)")
        }
        self.init(uncheckedIndex: index, count: count)
    }

    /// Parses `I/N` as `--shard` takes it.
    public init(parsing text: String, source: String = "--shard") throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ShardError("\(source) \(text): expected I/N, two whole numbers such as 0/4 (shard 0 of 4; I from 0 to N-1)")
        }
        try self.init(index: index, count: count, source: "\(source) \(text)")
    }

    /// The shard a Kubernetes Indexed Job's pod is: `JOB_COMPLETION_INDEX` with
    /// `RTCSWARM_SHARDS`, nil when neither is set; one without the other is a mistake.
    public static func fromEnvironment(_ environment: [String: String]) throws(ShardError) -> Shard? {
        let indexText = environment["JOB_COMPLETION_INDEX"], countText = environment["RTCSWARM_SHARDS"]
        switch (indexText, countText) {
        case (nil, nil):
            return nil
        case (let indexText?, nil):
            throw ShardError("JOB_COMPLETION_INDEX=\(indexText) is set but RTCSWARM_SHARDS is not: set it to the Job's completions")
        case (nil, let countText?):
            throw ShardError("RTCSWARM_SHARDS=\(countText) is set but JOB_COMPLETION_INDEX is not: give --shard I/N instead")
        case (let indexText?, let countText?):
            guard let index = Int(indexText) else {
                throw ShardError("JOB_COMPLETION_INDEX=\(indexText): expected a whole number from 0 to N-1")
            }
            guard let count = Int(countText) else {
                throw ShardError("RTCSWARM_SHARDS=\(countText): expected a whole number from 1 to \(maxCount)")
            }
            return try Shard(index: index, count: count, source: "JOB_COMPLETION_INDEX=\(indexText) RTCSWARM_SHARDS=\(countText)")
        }
    }
}

/// A shard given wrongly: the value and what is allowed, in one line.
public struct ShardError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
