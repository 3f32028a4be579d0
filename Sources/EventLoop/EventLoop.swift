#if canImport(Glibc)
import Glibc
#endif
import CShims
import Metrics
import RTCBase
import Synchronization

/// Something registered with the loop for readiness events on one file descriptor.
public protocol IOHandler: AnyObject {
    /// Called on the loop thread with the ready mask (`RS_EPOLLIN`, `RS_EPOLLOUT`, ...).
    func handleEvents(_ events: UInt32)
}

/// One thread's event loop: epoll for readiness, a timerfd armed at the earliest timer
/// deadline, and an eventfd through which other threads hand work to the loop.
///
/// Everything but `execute(_:)`, `stop()` and `now()` must be called on the loop's own
/// thread (the one inside `run()`), which is what makes the rest lock-free. Thousands of
/// peers share one loop: sockets, timers and signaling all run here.
public final class EventLoop: @unchecked Sendable {
    private let epollFD: Int32
    private let timerFD: Int32
    private let wakeFD: Int32
    private var timers = TimerHeap()
    private var armedDeadline: Instant?
    private var handlers: [Int32: (generation: UInt32, handler: IOHandler)] = [:]
    private var generation: UInt32 = 0
    private let inbox = Mutex<[@Sendable () -> Void]>([])
    private let stopRequested = Atomic<Bool>(false)
    private var endOfIterationActions: [() -> Void] = []
    /// When the last `epoll_wait` returned: wake-up batching counts its window from there.
    private var lastWake = Instant.zero
    /// Things on the loop that need it to wake the moment their data arrives (`holdPromptWakeups`).
    public private(set) var promptWakeupHolds = 0

    /// How long `run()` lets readiness pile up after a wake-up before it looks again: at
    /// 2 ms a worker reads the datagrams of many sockets per wake-up instead of one or two
    /// (SRS paces each player's packets), which was a third of a player's CPU. Timers
    /// still fire on time (the wait ends at the next deadline), sockets stamp each
    /// datagram with its arrival (`UDPSocket.onDatagram`), and nothing waits while anything
    /// holds prompt wake-ups. Zero (the default) never waits.
    public var wakeupBatching: Duration = .zero
    /// The buffers every UDP socket of this loop receives into, one socket at a time.
    lazy var receiveBatch = DatagramBatch(count: UDPSocket.batchSize, slotBytes: UDPSocket.slotBytes)
    /// The buffers every UDP socket of this loop queues its sends in.
    lazy var sendArena = SendArena(loop: self)

    /// Scratch space for stream reads on this loop's thread; readers copy out what they keep.
    let readScratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)

    /// How late timers fired, in milliseconds, measured on every timer: the same kind of
    /// histogram as the report's `lag_ms`, so a figure read from either is one estimate.
    public private(set) var timerLateness = Histogram()
    /// The stretches when the loop woke more than `LoopStalls.bound` after a timer was due.
    public let stalls = LoopStalls()
    /// UDP payload bytes this loop's sockets handed to the kernel and got from it (what is
    /// on the wire, less the IP and UDP headers): the run's bitrate over time.
    public internal(set) var udpBytesSent = 0
    public internal(set) var udpBytesReceived = 0
    /// Datagrams the kernel refused (full buffer, unreachable port).
    public internal(set) var udpSendFailures = 0
    /// Also told every timer's deadline and lateness in nanoseconds (the runner keeps a
    /// histogram of the timers due while its run measures).
    public var onTimerLateness: ((_ due: Instant, _ latenessNanoseconds: Int64) -> Void)?

    private static let timerToken: UInt64 = 0
    private static let wakeToken: UInt64 = 1

    public init() throws(SystemError) {
        epollFD = try blockingCall("epoll_create1") { rs_epoll_create() }
        timerFD = try blockingCall("timerfd_create") { rs_timerfd_create() }
        wakeFD = try blockingCall("eventfd") { rs_eventfd_create() }
        try blockingCall("epoll_ctl(timerfd)") { rs_epoll_add(epollFD, timerFD, RS_EPOLLIN, Self.timerToken) }
        try blockingCall("epoll_ctl(eventfd)") { rs_epoll_add(epollFD, wakeFD, RS_EPOLLIN, Self.wakeToken) }
    }

    deinit {
        close(epollFD)
        close(timerFD)
        close(wakeFD)
        readScratch.deallocate()
    }

    /// The monotonic clock (any thread).
    public func now() -> Instant { MonotonicClock.now() }

    // MARK: Timers

    /// Runs `action` on the loop at `deadline` or later, never earlier.
    @discardableResult
    public func schedule(at deadline: Instant, _ action: @escaping () -> Void) -> TimerID {
        timers.schedule(at: deadline, now: now(), action)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> TimerID {
        schedule(at: now() + delay, action)
    }

    public func cancel(_ timer: TimerID) { timers.cancel(timer) }

    public var pendingTimers: Int { timers.count }

    // MARK: Cross-thread work

    /// Hands `work` to the loop thread; safe from any thread. The loop runs it soon, in
    /// the order submitted.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        inbox.withLock { $0.append(work) }
        rs_eventfd_signal(wakeFD)
    }

    /// Makes `run()` return after the current iteration; safe from any thread.
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
        rs_eventfd_signal(wakeFD)
    }

    /// Runs `action` once at the end of the current loop iteration (after every ready
    /// descriptor was handled): how sockets batch their sends.
    public func atEndOfIteration(_ action: @escaping () -> Void) {
        endOfIterationActions.append(action)
    }

    /// Makes the loop wake at once for readiness until the matching `releasePromptWakeups`:
    /// held by what times its exchanges at the moment data is read (a peer setting up, a
    /// data channel, a TCP connection), so batching never lengthens a figure.
    public func holdPromptWakeups() { promptWakeupHolds += 1 }

    public func releasePromptWakeups() { promptWakeupHolds -= 1 }

    // MARK: Descriptors

    /// Starts delivering readiness events for `fd` to `handler`.
    public func register(_ fd: Int32, events: UInt32, handler: IOHandler) throws(SystemError) {
        generation &+= 1
        handlers[fd] = (generation, handler)
        let token = Self.token(fd: fd, generation: generation)
        try blockingCall("epoll_ctl(ADD)") { rs_epoll_add(epollFD, fd, events, token) }
    }

    /// Changes the event mask of a registered descriptor.
    public func modify(_ fd: Int32, events: UInt32) throws(SystemError) {
        guard let entry = handlers[fd] else { return }
        let token = Self.token(fd: fd, generation: entry.generation)
        try blockingCall("epoll_ctl(MOD)") { rs_epoll_modify(epollFD, fd, events, token) }
    }

    /// Stops events for `fd`; events already fetched for it in this iteration are dropped.
    public func deregister(_ fd: Int32) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        rs_epoll_remove(epollFD, fd)
    }

    private static func token(fd: Int32, generation: UInt32) -> UInt64 {
        // Tokens 0 and 1 are the timerfd and the eventfd; descriptors are offset by 2.
        UInt64(generation) << 32 | (UInt64(UInt32(bitPattern: fd)) + 2)
    }

    // MARK: Running

    /// Runs until `stop()` is called. Must be called from the thread that owns the loop.
    public func run() {
        stopRequested.store(false, ordering: .relaxed)
        var ready = [rs_epoll_event](repeating: rs_epoll_event(), count: 64)
        while !stopRequested.load(ordering: .acquiring) {
            runOnce(ready: &ready, timeoutMilliseconds: -1)
        }
    }

    /// Sleeps until `wakeupBatching` after the last wake-up, the next timer or `limit`
    /// (the caller's own timeout), whichever comes first, unless something holds prompt
    /// wake-ups.
    private func waitForBatch(limit: Instant?) {
        guard wakeupBatching > .zero, promptWakeupHolds == 0 else { return }
        var until = lastWake + wakeupBatching
        if let next = timers.nextDeadline(), next < until { until = next }
        if let limit, limit < until { until = limit }
        guard until > now() else { return }
        rs_sleep_until_monotonic_ns(until.nanoseconds)
    }

    /// Runs until `condition` holds or `timeout` passes; returns whether it held. For tests
    /// and for drivers that step the loop themselves.
    @discardableResult
    public func run(until condition: () -> Bool, timeout: Duration) -> Bool {
        let deadline = now() + timeout
        var ready = [rs_epoll_event](repeating: rs_epoll_event(), count: 64)
        while !condition() {
            let left = deadline - now()
            if left <= .zero { return false }
            runOnce(ready: &ready, timeoutMilliseconds: Int32(min(max(1, left.milliseconds.rounded(.up)), 1000)))
        }
        return true
    }

    private func runOnce(ready: inout [rs_epoll_event], timeoutMilliseconds: Int32) {
        // Work queued between iterations (a driver or test that sent between steps of
        // `run(until:)`) goes out before the loop sleeps, not after its next wake-up.
        runEndOfIterationActions()
        armTimer()
        waitForBatch(limit: timeoutMilliseconds >= 0 ? now() + .milliseconds(Int(timeoutMilliseconds)) : nil)
        let due = timers.nextDue()
        let count = ready.withUnsafeMutableBufferPointer { buffer in
            rs_epoll_wait(epollFD, buffer.baseAddress, Int32(buffer.count), timeoutMilliseconds)
        }
        if wakeupBatching > .zero { lastWake = now() }
        for index in 0..<max(0, Int(count)) {
            // Noted before each socket is read, so a frame read now is judged knowing the
            // loop was late: on waking, or because the process was stopped (or starved)
            // while an earlier handler of this turn ran.
            if let due { stalls.note(due: due, woke: now()) }
            let event = ready[index]
            switch event.token {
            case Self.timerToken:
                _ = rs_timerfd_drain(timerFD)
                armedDeadline = nil
            case Self.wakeToken:
                rs_eventfd_drain(wakeFD)
                runInbox()
            default:
                let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: event.token) &- 2)
                let generation = UInt32(truncatingIfNeeded: event.token >> 32)
                guard let entry = handlers[fd], entry.generation == generation else { continue }
                entry.handler.handleEvents(event.events)
            }
        }
        fireDueTimers()
        runEndOfIterationActions()
    }

    private func runInbox() {
        let work = inbox.withLock { pending -> [@Sendable () -> Void] in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        for item in work { item() }
    }

    private func fireDueTimers() {
        var current = now()
        while let (due, action) = timers.popDue(now: current) {
            timerLateness.record(max(0, current.milliseconds(since: due)))
            // A timer made late by the ones before it in this turn (no wake-up between).
            stalls.note(due: due, woke: current)
            onTimerLateness?(due, current.nanoseconds - due.nanoseconds)
            action()
            current = now()
        }
    }

    private func runEndOfIterationActions() {
        while !endOfIterationActions.isEmpty {
            let actions = endOfIterationActions
            endOfIterationActions.removeAll(keepingCapacity: true)
            for action in actions { action() }
        }
    }

    private func armTimer() {
        let next = timers.nextDeadline()
        guard next != armedDeadline else { return }
        armedDeadline = next
        // A deadline at or before the clock's origin would disarm; 1 ns fires at once.
        rs_timerfd_arm_absolute(timerFD, next.map { max(1, $0.nanoseconds) } ?? 0)
    }
}
