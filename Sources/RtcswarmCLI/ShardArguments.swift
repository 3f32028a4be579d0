import Foundation
import Scenario

/// `run`'s shard options: `--shard I/N` (or a Kubernetes Indexed Job's
/// `JOB_COMPLETION_INDEX` with `RTCSWARM_SHARDS`) and `--start-at` (or a non-empty
/// `RTCSWARM_START_AT`, which a Job's pods can take from one ConfigMap).
enum ShardArguments {
    /// A mistake in them, named with the value and what is allowed.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ arguments: ParsedArguments, environment: [String: String]) throws -> (shard: Shard?, startAt: Date?) {
        let shard = try arguments.string("shard").map { try Shard(parsing: $0) } ?? Shard.fromEnvironment(environment)
        let startAt: Date?
        if let text = arguments.string("start-at") {
            startAt = try parseTime(text, source: "--start-at ")
        } else if let text = environment["RTCSWARM_START_AT"], !text.isEmpty {
            startAt = try parseTime(text, source: "RTCSWARM_START_AT=")
        } else {
            startAt = nil
        }
        return (shard, startAt)
    }

    /// RFC 3339 (`2026-12-02T06:00:00Z`, `2026-12-02T07:00:00.5+01:00`).
    static func parseTime(_ text: String, source: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        throw Problem(description: "\(source)\(text): expected an RFC 3339 time with its zone, such as 2026-12-02T06:00:00Z")
    }
}
