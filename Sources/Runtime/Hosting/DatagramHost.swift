import EventLoop
import Impairment
import RTCBase

/// Any `DatagramMachine` on the event loop (a `Peer` in a run): its own UDP socket (SRS
/// and most servers tell sessions apart by the client's address), one timer at the
/// machine's `pollTimeout()`, and the scenario's impairment between the machine and its
/// socket, one seeded link per direction.
///
/// Without a receive link a datagram goes to the machine straight from the socket's
/// receive buffer (`handle(borrowed:from:to:now:)`); it is copied only when the link must
/// hold it.
///
/// Media waits in the socket's batch for the end of the loop's iteration; a STUN or DTLS
/// datagram (first byte below 128, RFC 7983 7) goes out before the machine's events are
/// acted on: a peer's `connected` starts its media, and a DTLS server's final flight or
/// an answer to the server's check must not wait for that, nor for the other peers the
/// iteration serves, or the setup would time the harness (seen: 5-15 ms toward Janus).
final class DatagramHost<Machine: DatagramMachine & AnyObject> {
    let loop: EventLoop
    let socket: UDPSocket
    private(set) var machine: Machine?
    private let timer: DeadlineTimer
    private let linkTimer: DeadlineTimer
    private var sendLink: ImpairedLink<Transmit>?
    private var receiveLink: ImpairedLink<ReceivedDatagram>?
    var onEvent: (Machine.Event) -> Void = { _ in }
    /// Whether this host holds the loop's prompt wake-ups (`Machine.needsPromptWakeups`).
    private var holdsPromptWakeups = false
    /// The latest time handed to the machine: a datagram read late is given its arrival,
    /// but never a time before one the machine has already seen.
    private var machineNow = Instant.zero

    init(loop: EventLoop, bindTo address: SocketAddress, send: ImpairmentSchedule?, receive: ImpairmentSchedule?,
         runStart: Instant, seed: UInt64) throws(SystemError) {
        self.loop = loop
        socket = try UDPSocket(loop: loop, bindTo: address, buffers: SocketBufferSizes(receiveBytes: 1 << 20))
        timer = DeadlineTimer(loop: loop)
        linkTimer = DeadlineTimer(loop: loop)
        sendLink = send.map { ImpairedLink(schedule: $0, start: runStart, seed: seed) }
        receiveLink = receive.map { ImpairedLink(schedule: $0, start: runStart, seed: seed ^ 0x5EED) }
        // Unowned, not weak: a weak reference gives the host a side table, which puts every
        // retain and release of it on the slow path, and each call through one loads it
        // anew (together 2-3 % of a player worker through SRS). The timers die with the
        // host, and its socket, closed in `deinit`, calls nothing after.
        timer.action = { [unowned self] in
            machine?.handleTimeout(now: advance(to: loop.now()))
            drive()
        }
        linkTimer.action = { [unowned self] in deliverLinks(now: advance(to: loop.now())) }
        socket.onDatagram = { [unowned self] bytes, from, arrival in received(bytes, from: from, arrival: arrival) }
        // Queued answers, events and the next deadline once per wake-up, not per datagram.
        socket.onDrained = { [unowned self] in drive() }
    }

    /// Starts driving `machine` (created once its role is known).
    func attach(_ machine: Machine) {
        self.machine = machine
        drive()
    }

    /// Hands everything the machine queued to the socket (through the send link), reports
    /// its events and keeps its timer.
    deinit {
        holdPromptWakeups(false)
        socket.close()
    }

    /// The later of `instant` and every time the machine was given; becomes the latest.
    private func advance(to instant: Instant) -> Instant {
        machineNow = max(machineNow, instant)
        return machineNow
    }

    func drive() {
        guard let current = machine else { return }
        holdPromptWakeups(current.needsPromptWakeups)
        let now = advance(to: loop.now())
        var setup = false
        while let transmit = machine?.pollTransmit() {
            if sendLink != nil {
                sendLink?.send(transmit, now: now)
            } else {
                setup = batch(transmit) || setup
            }
        }
        if setup { socket.flush() }
        while let event = machine?.pollEvent() { onEvent(event) }
        timer.arm(at: machine?.pollTimeout())
        if sendLink != nil || receiveLink != nil { deliverLinks(now: now) }
    }

    private func holdPromptWakeups(_ hold: Bool) {
        guard hold != holdsPromptWakeups else { return }
        holdsPromptWakeups = hold
        if hold { loop.holdPromptWakeups() } else { loop.releasePromptWakeups() }
    }

    /// `bytes` is the socket's receive buffer, valid during this call only.
    private func received(_ bytes: UnsafeRawBufferPointer, from: SocketAddress, arrival: Instant) {
        let now = advance(to: arrival)
        if receiveLink != nil {
            let datagram = ReceivedDatagram(payload: Array(bytes), source: from, destination: socket.localAddress)
            receiveLink?.send(datagram, size: bytes.count + 28, now: now)
            deliverLinks(now: now)
        } else {
            machine?.handle(borrowed: bytes, from: from, to: socket.localAddress, now: now)
        }
    }

    /// Moves what the impairment links have due, and waits for the next.
    private func deliverLinks(now: Instant) {
        var delivered = false, setup = false
        while let (transmit, _) = sendLink?.pollDelivery(now: now) { setup = batch(transmit) || setup }
        if setup { socket.flush() }
        while let (datagram, _) = receiveLink?.pollDelivery(now: now) {
            machine?.handle(datagram, now: now)
            delivered = true
        }
        if delivered { drive() }
        let sendNext = sendLink?.pollTimeout(), receiveNext = receiveLink?.pollTimeout()
        linkTimer.arm(at: sendNext.map { min($0, receiveNext ?? $0) } ?? receiveNext)
    }

    /// Puts `transmit` in the socket's batch; true when it is STUN or DTLS, which the
    /// caller flushes once its datagrams are queued.
    private func batch(_ transmit: Transmit) -> Bool {
        socket.send(transmit.payload, to: transmit.destination)
        return Self.isSetup(transmit.payload)
    }

    /// STUN (0-3) or DTLS (20-63), not SRTP (128-191): RFC 7983 7.
    static func isSetup(_ payload: [UInt8]) -> Bool { payload.first.map { $0 < 128 } ?? false }

    /// Ends the machine's session politely when it has something to say last (a `Peer`'s
    /// DTLS close_notify), sends that, and releases the socket.
    func close() {
        if let closing = machine as? any ClosesPolitely { closing.close(now: advance(to: loop.now())) }
        drive()
        holdPromptWakeups(false)
        timer.cancel()
        linkTimer.cancel()
        socket.close()
    }

    /// Datagrams this machine's socket lost in its own receive buffer (the harness, not the network).
    var socketDrops: Int { socket.stats.receiveBufferDrops }
}
