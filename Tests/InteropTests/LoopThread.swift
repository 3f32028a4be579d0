import EventLoop
import Foundation

/// Runs an event loop on a thread of its own while a test drives an outside program.
final class LoopThread: @unchecked Sendable {
    let loop: EventLoop
    private let finished = DispatchSemaphore(value: 0)

    init(_ loop: EventLoop) {
        self.loop = loop
        let thread = Thread { [loop, finished] in
            loop.run()
            finished.signal()
        }
        thread.start()
    }

    /// Stops the loop and waits for its thread to leave `run()`.
    func stop() {
        loop.stop()
        finished.wait()
    }
}
