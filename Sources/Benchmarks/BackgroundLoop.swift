#if canImport(Glibc)
import Glibc
#endif
import EventLoop
import Foundation
import Synchronization

/// An event loop running on a thread of its own, whose CPU time other threads can read
/// (through the thread's CPU clock, `pthread_getcpuclockid`).
final class BackgroundLoop: Sendable {
    let loop: EventLoop
    private let cpuClock = Atomic<Int32>(0)
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `loop.run()` on a new thread; returns once it runs.
    init(_ loop: EventLoop) {
        self.loop = loop
        let thread = Thread { [self] in
            var clock = clockid_t()
            pthread_getcpuclockid(pthread_self(), &clock)
            cpuClock.store(clock, ordering: .releasing)
            started.signal()
            loop.run()
            finished.signal()
        }
        thread.start()
        started.wait()
    }

    /// CPU seconds the loop's thread has used so far (readable from any thread).
    var cpuSeconds: Double {
        var time = timespec()
        clock_gettime(cpuClock.load(ordering: .acquiring), &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Hands `work` to the loop thread (see `EventLoop.execute`).
    func execute(_ work: @escaping @Sendable () -> Void) { loop.execute(work) }

    /// Stops the loop and waits for its thread to leave `run()`.
    func stop() {
        loop.stop()
        finished.wait()
    }
}

/// Carries a value that is only touched on one loop thread into a `@Sendable` closure
/// that runs there.
struct LoopBound<Value>: @unchecked Sendable {
    let value: Value
}
