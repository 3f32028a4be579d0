import EventLoop
import RTCBase

/// Keeps one loop timer at a sans-IO state machine's `pollTimeout()` and runs the host's
/// `action` (its machine's `handleTimeout(now:)`) once that deadline has come. Every host
/// drives its machine through one of these.
///
/// Asked after every wake-up, so after nearly every packet, while a receiving peer's
/// deadline mostly moves later (its frame assembler's hold, its next report). The loop
/// timer is therefore moved only when the deadline comes earlier; one that fires before
/// a deadline that moved later is set again for it without running `action`. `action`
/// and the loop's callback are made once, not per call.
final class DeadlineTimer {
    private let loop: EventLoop
    /// Runs at the deadline; the host sets it once, before the first `arm`.
    var action: () -> Void = {}
    private var timer: TimerID?
    /// When the loop timer fires, and when the machine wants `action`.
    private var armedAt: Instant?
    private var wanted: Instant?
    private lazy var fire: () -> Void = { [weak self] in self?.fired() }

    init(loop: EventLoop) { self.loop = loop }

    /// Runs `action` at `deadline` (or never, for nil), replacing any earlier deadline.
    func arm(at deadline: Instant?) {
        wanted = deadline
        guard let deadline else { return cancelLoopTimer() }
        if let armedAt, armedAt <= deadline { return }
        cancelLoopTimer()
        armedAt = deadline
        timer = loop.schedule(at: deadline, fire)
    }

    func cancel() {
        wanted = nil
        cancelLoopTimer()
    }

    private func fired() {
        timer = nil
        armedAt = nil
        guard let wanted else { return }
        if wanted > loop.now() { return arm(at: wanted) }
        self.wanted = nil
        action()
    }

    private func cancelLoopTimer() {
        if let timer { loop.cancel(timer) }
        timer = nil
        armedAt = nil
    }
}
