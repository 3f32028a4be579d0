import RTCBase

/// The stretches of time when an event loop ran late: each wake-up that came more than
/// `bound` after the earliest timer was due, and each timer run more than `bound` after it
/// was due, is kept as the interval [due, woke]. While the
/// loop is late nothing it hosts reads its sockets or sends, so a freeze that would have
/// been none without such a stretch is the harness's, not the network's (docs/metrics.md,
/// "Whose fault is a bad figure").
///
/// Kept cheap: one comparison per wake-up, nothing per packet; overlapping stretches are
/// merged and only the latest `capacity` are kept (a freeze asks about its own gap, which
/// ended the moment it is asked).
public final class LoopStalls {
    /// How late a loop may run before it counts as stalled: the saturation bound of
    /// METRICS.md ("The harness watching itself").
    public static let bound = Duration.milliseconds(50)
    /// Stretches kept; older ones are overwritten.
    public static let capacity = 64

    /// The kept stretches, a ring: once full, the next one overwrites the oldest.
    public private(set) var intervals: [(start: Instant, end: Instant)] = []
    /// Stretches noted over the loop's life, merged ones counted once.
    public private(set) var total = 0
    private var next = 0

    public init() {}

    /// Notes a wake-up at `woke` when the earliest timer was due at `due`; nothing when it
    /// was late by `bound` or less.
    public func note(due: Instant, woke: Instant) {
        guard woke - due > Self.bound else { return }
        let latest = (next + intervals.count - 1) % max(1, intervals.count)
        if !intervals.isEmpty, due <= intervals[latest].end {
            intervals[latest].end = max(intervals[latest].end, woke)
            return
        }
        total += 1
        if intervals.count < Self.capacity {
            intervals.append((due, woke))
        } else {
            intervals[next] = (due, woke)
            next = (next + 1) % Self.capacity
        }
    }

    /// How much of the interval (`start`, `end`) the kept stretches cover.
    public func stalled(from start: Instant, to end: Instant) -> Duration {
        intervals.reduce(.zero) { covered, stretch in
            let (from, to) = (max(start, stretch.start), min(end, stretch.end))
            return from < to ? covered + (to - from) : covered
        }
    }
}
