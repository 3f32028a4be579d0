import EventLoop
import RTCBase

/// Keeps one loop timer at a sans-IO state machine's `pollTimeout()`: rearmed only when
/// the deadline moves, cancelled when there is none. Every host drives its machine's
/// `handleTimeout(now:)` through one of these.
final class DeadlineTimer {
    private let loop: EventLoop
    private var timer: TimerID?
    private var armedAt: Instant?

    init(loop: EventLoop) { self.loop = loop }

    /// Fires `action` at `deadline` (or never, for nil), replacing any earlier deadline.
    func arm(at deadline: Instant?, _ action: @escaping () -> Void) {
        guard deadline != armedAt else { return }
        cancel()
        guard let deadline else { return }
        armedAt = deadline
        timer = loop.schedule(at: deadline) { [weak self] in
            self?.armedAt = nil
            self?.timer = nil
            action()
        }
    }

    func cancel() {
        if let timer { loop.cancel(timer) }
        timer = nil
        armedAt = nil
    }
}
