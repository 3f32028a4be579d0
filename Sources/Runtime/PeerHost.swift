import EventLoop
import Impairment
import PeerCore
import RTCBase

/// A `Peer` on the event loop: its own UDP socket (SRS and most servers tell sessions
/// apart by the client's address), one timer at the peer's `pollTimeout()`, and the
/// scenario's impairment between the peer and its socket, one seeded link per direction.
final class PeerHost {
    let loop: EventLoop
    let socket: UDPSocket
    private(set) var peer: Peer?
    private let timer: DeadlineTimer
    private let linkTimer: DeadlineTimer
    private var sendLink: ImpairedLink<Transmit>?
    private var receiveLink: ImpairedLink<(bytes: [UInt8], from: SocketAddress)>?
    var onEvent: (PeerEvent) -> Void = { _ in }

    init(loop: EventLoop, bindTo address: SocketAddress, send: ImpairmentSchedule?, receive: ImpairmentSchedule?,
         runStart: Instant, seed: UInt64) throws(SystemError) {
        self.loop = loop
        socket = try UDPSocket(loop: loop, bindTo: address, buffers: SocketBufferSizes(receiveBytes: 1 << 20))
        timer = DeadlineTimer(loop: loop)
        linkTimer = DeadlineTimer(loop: loop)
        sendLink = send.map { ImpairedLink(schedule: $0, start: runStart, seed: seed) }
        receiveLink = receive.map { ImpairedLink(schedule: $0, start: runStart, seed: seed ^ 0x5EED) }
        socket.onDatagram = { [weak self] bytes, from in self?.received(Array(bytes), from: from) }
        // Queued answers, events and the next deadline once per wake-up, not per datagram.
        socket.onDrained = { [weak self] in self?.drive() }
    }

    /// Starts driving `peer` (created once its role is known).
    func attach(_ peer: Peer) {
        self.peer = peer
        drive()
    }

    /// Hands everything the peer queued to the socket (through the send link), reports
    /// its events and keeps its timer.
    func drive() {
        guard let peer else { return }
        let now = loop.now()
        while let transmit = peer.pollTransmit() {
            if sendLink != nil {
                sendLink?.send(transmit, now: now)
            } else {
                socket.send(transmit.payload, to: transmit.destination)
            }
        }
        while let event = peer.pollEvent() { onEvent(event) }
        timer.arm(at: peer.pollTimeout()) { [weak self] in
            guard let self, let peer = self.peer else { return }
            peer.handleTimeout(now: self.loop.now())
            self.drive()
        }
        deliverLinks(now: now)
    }

    private func received(_ bytes: [UInt8], from: SocketAddress) {
        let now = loop.now()
        if receiveLink != nil {
            receiveLink?.send((bytes, from), size: bytes.count + 28, now: now)
            deliverLinks(now: now)
        } else {
            peer?.handle(datagram: bytes, from: from, to: socket.localAddress, now: now)
        }
    }

    /// Moves what the impairment links have due, and waits for the next.
    private func deliverLinks(now: Instant) {
        var delivered = false
        while let (transmit, _) = sendLink?.pollDelivery(now: now) { socket.send(transmit.payload, to: transmit.destination) }
        while let (datagram, _) = receiveLink?.pollDelivery(now: now) {
            peer?.handle(datagram: datagram.bytes, from: datagram.from, to: socket.localAddress, now: now)
            delivered = true
        }
        if delivered { drive() }
        let next = [sendLink?.pollTimeout(), receiveLink?.pollTimeout()].compactMap { $0 }.min()
        linkTimer.arm(at: next) { [weak self] in
            guard let self else { return }
            self.deliverLinks(now: self.loop.now())
        }
    }

    /// Ends the call politely (DTLS close_notify) and releases the socket.
    func close() {
        peer?.close(now: loop.now())
        drive()
        timer.cancel()
        linkTimer.cancel()
        socket.close()
    }

    /// Datagrams this peer's socket lost in its own receive buffer (the harness, not the network).
    var socketDrops: Int { socket.stats.receiveBufferDrops }
}
