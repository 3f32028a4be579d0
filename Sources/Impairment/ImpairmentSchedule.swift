/// Profiles that take over one another during a run: "0-10 s clean, 10-20 s 5 % loss,
/// then 300 kbps".
///
/// Each change has an offset from the start of the run; a change applies to packets sent
/// at or after `start + offset` (a packet sent exactly at 10 s gets the 10 s profile).
/// Before the first change the link is clean.
///
/// Scenario form: a list of `{"at_ms": <offset>, "profile": <profile or preset name>}`
/// in increasing order, or a single profile (object or preset name), which applies from
/// the start:
///
///     [{"at_ms": 0, "profile": "clean"},
///      {"at_ms": 10000, "profile": {"loss_pct": 5}},
///      {"at_ms": 20000, "profile": {"rate_kbps": 300, "queue_packets": 30}}]
public struct ImpairmentSchedule: Hashable, Sendable {
    /// One change: from `offset` after the start on, packets see `profile`.
    public struct Change: Hashable, Sendable {
        public var offset: Duration
        public var profile: ImpairmentProfile

        public init(offset: Duration, profile: ImpairmentProfile) {
            self.offset = offset
            self.profile = profile
        }
    }

    /// The changes, in increasing offset order.
    public private(set) var changes: [Change]

    /// A schedule from changes in increasing offset order; throws naming the first change
    /// out of order or with a bad profile.
    public init(_ changes: [Change]) throws(ImpairmentError) {
        for (index, change) in changes.enumerated() {
            if change.offset < .zero {
                throw ImpairmentError(field: "[\(index)].at_ms", "must be >= 0, got \(change.offset.milliseconds)")
            }
            if index > 0, change.offset <= changes[index - 1].offset {
                throw ImpairmentError(
                    field: "[\(index)].at_ms",
                    "changes must be in increasing time order: \(change.offset.milliseconds) follows \(changes[index - 1].offset.milliseconds)")
            }
            do {
                try change.profile.validate()
            } catch {
                throw ImpairmentError(field: "[\(index)].profile.\(error.field)", error.message)
            }
        }
        self.changes = changes
    }

    /// No change: the link stays clean.
    public init() {
        changes = []
    }

    /// One profile for the whole run.
    public init(_ profile: ImpairmentProfile) {
        changes = [Change(offset: .zero, profile: profile)]
    }

    /// This schedule with `change` taking over at its offset (in place of a change already
    /// there), the changes kept in increasing offset order.
    public func inserting(_ change: Change) -> ImpairmentSchedule {
        var copy = self
        copy.changes = (changes.filter { $0.offset != change.offset } + [change]).sorted { $0.offset < $1.offset }
        return copy
    }

    /// The index into `changes` in force at `offset` from the start, or nil before the first.
    public func changeIndex(at offset: Duration) -> Int? {
        changes.lastIndex { $0.offset <= offset }
    }

    /// The profile in force at `offset` from the start of the run.
    public func profile(at offset: Duration) -> ImpairmentProfile {
        changeIndex(at: offset).map { changes[$0].profile } ?? .clean
    }
}

extension ImpairmentSchedule: Codable {
    private enum Field: String, CodingKey {
        case atMs = "at_ms"
        case profile
    }

    private struct Entry: Codable {
        var atMs: Double
        var profile: ImpairmentProfile

        init(atMs: Double, profile: ImpairmentProfile) {
            self.atMs = atMs
            self.profile = profile
        }

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: Field.self)
            atMs = try fields.decode(Double.self, forKey: .atMs)
            profile = try fields.decode(ImpairmentProfile.self, forKey: .profile)
        }

        func encode(to encoder: any Encoder) throws {
            var fields = encoder.container(keyedBy: Field.self)
            try fields.encode(atMs, forKey: .atMs)
            try fields.encode(profile, forKey: .profile)
        }
    }

    public init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var changes: [Change] = []
            while !list.isAtEnd {
                let entry = try list.decode(Entry.self)
                let nanoseconds = (entry.atMs * 1_000_000).rounded()
                guard nanoseconds.isFinite, abs(nanoseconds) < 9e18 else {
                    throw DecodingError.dataCorruptedError(in: list, debugDescription: "at_ms out of range: \(entry.atMs)")
                }
                changes.append(Change(offset: .nanoseconds(Int64(nanoseconds)), profile: entry.profile))
            }
            do {
                try self.init(changes)
            } catch {
                throw DecodingError.dataCorruptedError(in: list, debugDescription: error.description)
            }
        } else {
            self.init(try ImpairmentProfile(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var list = encoder.unkeyedContainer()
        for change in changes {
            try list.encode(Entry(atMs: change.offset.milliseconds, profile: change.profile))
        }
    }
}
