#if canImport(Glibc)
import Glibc
#endif
import CShims
import RTCBase

/// Socket buffer sizes to ask the kernel for; nil keeps the system default. The kernel
/// caps requests at `net.core.rmem_max`/`wmem_max` and reports what it granted.
public struct SocketBufferSizes: Sendable, Equatable {
    public var receiveBytes: Int?
    public var sendBytes: Int?

    public init(receiveBytes: Int? = nil, sendBytes: Int? = nil) {
        self.receiveBytes = receiveBytes
        self.sendBytes = sendBytes
    }
}

/// Counters a UDP socket keeps about itself (METRICS.md, "The harness watching itself").
public struct UDPSocketStats: Sendable, Equatable {
    public var datagramsReceived = 0
    public var datagramsSent = 0
    public var receiveBatches = 0
    public var sendBatches = 0
    /// Datagrams the kernel dropped because the receive buffer was full (SO_RXQ_OVFL),
    /// as of the last datagram received: the kernel reports the count with each one.
    public var receiveBufferDrops = 0
    /// Datagrams larger than a receive slot, dropped because their tail was cut off.
    public var truncatedDrops = 0
    /// Datagrams not sent because the send buffer was full or the call failed.
    public var sendFailures = 0
    public var lastSendError: SystemError?
}

/// A non-blocking UDP socket on the loop that receives with `recvmmsg` and sends with
/// `sendmmsg`, both in batches.
///
/// Received datagrams are handed to `onDatagram` as views into the loop's receive buffers
/// (one set for every socket of the loop: sockets are drained one at a time), valid only
/// during the call (no allocation per packet). Sends are copied into the loop's send
/// buffers (one set too, `SendArena`) and go out at the end of the loop iteration, a
/// socket's datagrams of that iteration in one `sendmmsg`.
public final class UDPSocket: IOHandler {
    /// Datagrams per recvmmsg (the loop's one set of receive buffers).
    public static let batchSize = 32
    /// Slot size: above any MTU rtcswarm sends; larger datagrams are sent on their own.
    public static let slotBytes = 2048

    public let loop: EventLoop
    public let fd: Int32
    public let localAddress: SocketAddress
    public private(set) var grantedBuffers = SocketBufferSizes()
    public private(set) var stats = UDPSocketStats()
    /// Called for each received datagram on the loop thread, with when the kernel received
    /// it (its own timestamp, or the time it was read when it gave none): a loop that reads
    /// late (`EventLoop.wakeupBatching`) still times each datagram as it arrived.
    public var onDatagram: (UnsafeRawBufferPointer, SocketAddress, Instant) -> Void = { _, _, _ in }
    /// Called once the socket is drained after it became readable: the place to act on
    /// what the datagrams of that wake-up changed, once instead of once per datagram.
    public var onDrained: () -> Void = {}

    /// This socket's datagrams queued in the loop's `SendArena`: how many, and the first
    /// and last slots of their chain.
    private var pendingSends = 0
    private var firstSlot = 0
    private var lastSlot = 0
    private var closed = false

    /// Binds to `address` (port 0 picks a free port) and starts receiving.
    public init(loop: EventLoop, bindTo address: SocketAddress, buffers: SocketBufferSizes = .init()) throws(SystemError) {
        self.loop = loop
        let family = address.family == .ipv4 ? UInt16(RS_AF_INET) : UInt16(RS_AF_INET6)
        let fd = try blockingCall("socket(UDP)") { rs_udp_socket(family) }
        self.fd = fd
        do {
            var c = address.cAddress
            try blockingCall("bind(\(address))") { rs_bind(fd, &c) }
            var local = rs_address()
            try blockingCall("getsockname") { rs_local_address(fd, &local) }
            localAddress = SocketAddress(local) ?? address
            try blockingCall("setsockopt(SO_RXQ_OVFL)") { rs_enable_drop_counter(fd) }
            try blockingCall("setsockopt(SO_TIMESTAMPNS)") { rs_enable_receive_timestamps(fd) }
            try setBuffers(buffers)
        } catch {
            Glibc.close(fd)
            throw error
        }
        try loop.register(fd, events: RS_EPOLLIN, handler: self)
    }

    deinit {
        if !closed { Glibc.close(fd) }
    }

    private func setBuffers(_ sizes: SocketBufferSizes) throws(SystemError) {
        var receive: Int32 = 0
        var send: Int32 = 0
        try blockingCall("setsockopt(SO_RCVBUF/SO_SNDBUF)") {
            rs_set_buffer_sizes(fd, Int32(sizes.receiveBytes ?? 0), Int32(sizes.sendBytes ?? 0), &receive, &send)
        }
        grantedBuffers = SocketBufferSizes(receiveBytes: Int(receive), sendBytes: Int(send))
    }

    /// Queues one datagram; it leaves at the end of this loop iteration, or before when
    /// `flush()` is called or the loop's send buffers are all taken.
    public func send(_ payload: UnsafeRawBufferPointer, to destination: SocketAddress) {
        guard !closed else { return }
        if payload.count > Self.slotBytes {
            sendOversized(payload, to: destination)
            return
        }
        let slot = loop.sendArena.queue(payload, to: destination, for: self, after: pendingSends > 0 ? lastSlot : nil)
        // Read after queuing: the arena may have sent what this socket had queued.
        if pendingSends == 0 { firstSlot = slot }
        lastSlot = slot
        pendingSends += 1
    }

    public func send(_ payload: [UInt8], to destination: SocketAddress) {
        payload.withUnsafeBytes { send($0, to: destination) }
    }

    /// Sends every queued datagram now.
    public func flush() {
        guard !closed, pendingSends > 0 else { return }
        let count = pendingSends
        pendingSends = 0
        loop.sendArena.withChain(from: firstSlot, count: count) { transmit($0) }
    }

    /// `sendmmsg` until every datagram of `slots` was sent or refused.
    private func transmit(_ slots: UnsafeBufferPointer<rs_datagram>) {
        guard let first = slots.baseAddress else { return }
        var offset = 0
        while offset < slots.count {
            let result = Result { () throws(SystemError) -> IOResult<Int32> in
                try systemCall("sendmmsg") { rs_send_batch(fd, first + offset, UInt32(slots.count - offset)) }
            }
            stats.sendBatches += 1
            switch result {
            case .success(.done(let sent)):
                stats.datagramsSent += Int(sent)
                for index in offset..<offset + Int(sent) { loop.udpBytesSent += Int(slots[index].length) }
                offset += Int(sent)
            case .success(.wouldBlock):
                recordSendFailures(slots.count - offset, SystemError("sendmmsg", errno: EAGAIN))
                offset = slots.count
            case .failure(let error):
                // The first datagram of the rest failed (e.g. ECONNREFUSED); skip it.
                recordSendFailures(1, error)
                offset += 1
            }
        }
    }

    private func sendOversized(_ payload: UnsafeRawBufferPointer, to destination: SocketAddress) {
        var slot = rs_datagram(buffer: UnsafeMutablePointer(mutating: payload.baseAddress?.assumingMemoryBound(to: UInt8.self)),
                               capacity: UInt32(payload.count), length: UInt32(payload.count),
                               truncated: 0, address: destination.cAddress, received_ns: 0)
        do {
            if case .done = try systemCall("sendmmsg", { rs_send_batch(fd, &slot, 1) }) {
                stats.datagramsSent += 1
                loop.udpBytesSent += payload.count
            } else {
                recordSendFailures(1, SystemError("sendmmsg", errno: EAGAIN))
            }
        } catch {
            recordSendFailures(1, error)
        }
    }

    private func recordSendFailures(_ count: Int, _ error: SystemError) {
        stats.sendFailures += count
        loop.udpSendFailures += count
        stats.lastSendError = error
    }

    public func handleEvents(_ events: UInt32) {
        receiveAll()
    }

    /// Drains the socket: batches until the kernel has nothing more.
    private func receiveAll() {
        defer { if !closed { onDrained() } }
        while !closed {
            var drops = UInt32(stats.receiveBufferDrops)
            let batch = loop.receiveBatch
            let result = batch.slots.withUnsafeMutableBufferPointer { slots in
                Result { () throws(SystemError) -> IOResult<Int32> in
                    try systemCall("recvmmsg") { rs_recv_batch(fd, slots.baseAddress!, UInt32(Self.batchSize), &drops) }
                }
            }
            stats.receiveBufferDrops = Int(drops)
            guard case .success(.done(let count)) = result, count > 0 else { return }
            stats.receiveBatches += 1
            stats.datagramsReceived += Int(count)
            // A handler may close the socket (its peer ended): nothing is delivered after.
            for index in 0..<Int(count) where !closed {
                let slot = batch.slots[index]
                if slot.truncated != 0 {
                    stats.truncatedDrops += 1
                    continue
                }
                guard let from = SocketAddress(slot.address) else { continue }
                loop.udpBytesReceived += Int(slot.length)
                let arrival = slot.received_ns > 0 ? Instant(nanoseconds: slot.received_ns) : loop.now()
                onDatagram(UnsafeRawBufferPointer(start: slot.buffer, count: Int(slot.length)), from, arrival)
            }
            if Int(count) < Self.batchSize { return }
        }
    }

    /// Sends what is queued, stops receiving and closes the descriptor.
    public func close() {
        guard !closed else { return }
        flush()
        closed = true
        loop.deregister(fd)
        Glibc.close(fd)
    }
}
