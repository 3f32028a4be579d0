import RTCBase

/// Identifies a scheduled timer so that it can be cancelled.
public struct TimerID: Hashable, Sendable {
    let value: UInt64
}

/// A binary min-heap of deadlines. Timers with equal deadlines fire in the order they
/// were scheduled; cancelled timers are skipped lazily when they reach the top.
struct TimerHeap {
    private struct Entry {
        var deadline: Instant
        var id: UInt64
    }

    /// When each pending timer was scheduled: a deadline already past when it was set
    /// means "at once", so its lateness counts from then, not from the deadline.
    private var scheduledAt: [UInt64: Instant] = [:]

    private var entries: [Entry] = []
    private var actions: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 1

    var isEmpty: Bool { actions.isEmpty }
    var count: Int { actions.count }

    mutating func schedule(at deadline: Instant, now: Instant, _ action: @escaping () -> Void) -> TimerID {
        let id = nextID
        nextID += 1
        actions[id] = action
        if deadline < now { scheduledAt[id] = now }
        entries.append(Entry(deadline: deadline, id: id))
        siftUp(entries.count - 1)
        return TimerID(value: id)
    }

    /// Returns whether the timer was still pending.
    @discardableResult
    mutating func cancel(_ timer: TimerID) -> Bool {
        scheduledAt[timer.value] = nil
        return actions.removeValue(forKey: timer.value) != nil
    }

    /// The earliest pending deadline.
    mutating func nextDeadline() -> Instant? {
        dropCancelledTop()
        return entries.first?.deadline
    }

    /// When the timer with the earliest deadline is due: its deadline, or when it was
    /// scheduled if that was later (a timer set "at once" is not late from the past).
    mutating func nextDue() -> Instant? {
        dropCancelledTop()
        return entries.first.map { scheduledAt[$0.id] ?? $0.deadline }
    }

    /// Removes and returns the earliest timer whose deadline is at or before `now`, with
    /// the instant it was due (its deadline, or when it was scheduled if that was later).
    mutating func popDue(now: Instant) -> (due: Instant, action: () -> Void)? {
        dropCancelledTop()
        guard let top = entries.first, top.deadline <= now else { return nil }
        removeTop()
        guard let action = actions.removeValue(forKey: top.id) else { return nil }
        return (scheduledAt.removeValue(forKey: top.id) ?? top.deadline, action)
    }

    private mutating func dropCancelledTop() {
        while let top = entries.first, actions[top.id] == nil { removeTop() }
    }

    private mutating func removeTop() {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return }
        entries[0] = last
        siftDown(0)
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        let x = entries[a], y = entries[b]
        return x.deadline < y.deadline || (x.deadline == y.deadline && x.id < y.id)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(child, parent) else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < entries.count, less(left, smallest) { smallest = left }
            if right < entries.count, less(right, smallest) { smallest = right }
            if smallest == parent { return }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
