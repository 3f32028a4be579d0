import CShims

/// Delivers SIGINT and SIGTERM to the loop as ordinary events, so that Ctrl-C can stop
/// spawning, close peers politely and still write the report: the signal handler (in
/// CShims) only records the signal and wakes an eventfd, whatever thread it lands on.
public final class InterruptWatcher: IOHandler {
    public let loop: EventLoop
    private let fd: Int32
    /// Called on the loop with the signal number (SIGINT = 2, SIGTERM = 15).
    public var onSignal: (Int32) -> Void = { _ in }
    public private(set) var received: [Int32] = []

    public init(loop: EventLoop) throws(SystemError) {
        self.loop = loop
        fd = try blockingCall("sigaction/eventfd") { rs_interrupt_fd() }
        try loop.register(fd, events: RS_EPOLLIN, handler: self)
    }

    deinit { loop.deregister(fd) }

    public func handleEvents(_ events: UInt32) {
        let signal = rs_interrupt_take(fd)
        guard signal > 0 else { return }
        received.append(signal)
        onSignal(signal)
    }
}
