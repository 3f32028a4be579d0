#if canImport(Glibc)
import Glibc
#endif
import CShims
import RTCBase

/// A non-blocking TCP stream on the loop: bytes in through `onRead`, bytes out through
/// `write(_:)` with buffering when the kernel's send buffer is full.
///
/// Signaling (HTTP, WebSocket, Socket.IO) rides on this; the protocol code itself is
/// sans-IO and only sees the byte arrays.
public final class TCPConnection: IOHandler {
    public enum State: Equatable, Sendable { case connecting, open, closed }

    public let loop: EventLoop
    public let fd: Int32
    public let remoteAddress: SocketAddress
    public private(set) var state: State
    public private(set) var bytesRead = 0
    public private(set) var bytesWritten = 0

    /// Called with each chunk read.
    public var onRead: ([UInt8]) -> Void = { _ in }
    /// Called once when a connect finishes: nil on success, the error otherwise.
    public var onConnect: (SystemError?) -> Void = { _ in }
    /// Called once when the connection ends: nil for an orderly close by the peer (EOF)
    /// or by `close()`, the error otherwise.
    public var onClose: (SystemError?) -> Void = { _ in }

    private var pending: [UInt8] = []
    private var pendingOffset = 0
    /// Where each buffered write ends in `pending`, oldest first.
    private var pendingEnds = FIFO<Int>()
    /// A drained buffer larger than this gives its memory back instead of keeping it.
    private static let keptCapacity = 64 * 1024
    private var closeWhenFlushed = false

    /// Starts connecting to `address`; `onConnect` tells how it went.
    public static func connect(loop: EventLoop, to address: SocketAddress) throws(SystemError) -> TCPConnection {
        let family = address.family == .ipv4 ? UInt16(RS_AF_INET) : UInt16(RS_AF_INET6)
        let fd = try blockingCall("socket(TCP)") { rs_tcp_socket(family) }
        var c = address.cAddress
        let result = rs_connect(fd, &c)
        if result != 0 && Glibc.errno != EINPROGRESS {
            let error = SystemError("connect(\(address))", errno: Glibc.errno)
            Glibc.close(fd)
            throw error
        }
        rs_set_tcp_nodelay(fd)
        return try TCPConnection(loop: loop, fd: fd, remote: address, state: .connecting)
    }

    init(loop: EventLoop, fd: Int32, remote: SocketAddress, state: State) throws(SystemError) {
        self.loop = loop
        self.fd = fd
        self.remoteAddress = remote
        self.state = state
        wantsWrite = state == .connecting
        let events = state == .connecting ? RS_EPOLLIN | RS_EPOLLOUT : RS_EPOLLIN
        do {
            try loop.register(fd, events: events | RS_EPOLLRDHUP, handler: self)
        } catch {
            Glibc.close(fd)
            throw error
        }
        // Signaling and room messages are timed when they are read: no batched wake-ups.
        loop.holdPromptWakeups()
    }

    deinit {
        if state != .closed {
            Glibc.close(fd)
            loop.releasePromptWakeups()
        }
    }

    /// Sends `bytes` in order after everything written before; buffers what the kernel
    /// does not take yet.
    public func write(_ bytes: [UInt8]) {
        guard state != .closed, !closeWhenFlushed, !bytes.isEmpty else { return }
        pending.append(contentsOf: bytes)
        pendingEnds.append(pending.count)
        if state == .open { writePending() }
    }

    /// Bytes accepted by `write` and not yet handed to the kernel.
    public var bufferedBytes: Int { pending.count - pendingOffset }

    /// Calls to `write` whose bytes are not all handed to the kernel yet.
    public var bufferedWrites: Int { pendingEnds.count }

    /// Closes after the buffered bytes are sent.
    public func closeAfterWriting() {
        closeWhenFlushed = true
        if bufferedBytes == 0, state == .open { finish(nil) }
    }

    /// Closes at once, dropping unsent bytes.
    public func close() { finish(nil) }

    public func handleEvents(_ events: UInt32) {
        if state == .connecting {
            completeConnect()
            return
        }
        if events & RS_EPOLLOUT != 0 { writePending() }
        if events & (RS_EPOLLIN | RS_EPOLLRDHUP | RS_EPOLLHUP | RS_EPOLLERR) != 0 { readAvailable() }
    }

    private func completeConnect() {
        let error = rs_socket_error(fd)
        guard error == 0 else {
            let failure = SystemError("connect(\(remoteAddress))", errno: error)
            onConnect(failure)
            finish(failure)
            return
        }
        state = .open
        onConnect(nil)
        updateInterest()
        if bufferedBytes > 0 { writePending() }
    }

    private func readAvailable() {
        let buffer = loop.readScratch
        while state == .open {
            let result = Result { () throws(SystemError) -> IOResult<Int> in
                try systemCall("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }
            switch result {
            case .success(.done(0)):
                finish(nil)
                return
            case .success(.done(let count)):
                bytesRead += count
                onRead(Array(UnsafeRawBufferPointer(rebasing: buffer[0..<count])))
            case .success(.wouldBlock):
                return
            case .failure(let error):
                finish(error)
                return
            }
        }
    }

    private func writePending() {
        while state == .open, bufferedBytes > 0 {
            let result = Result { () throws(SystemError) -> IOResult<Int> in
                try systemCall("write") {
                    pending.withUnsafeBytes { raw in
                        Glibc.send(fd, raw.baseAddress! + pendingOffset, raw.count - pendingOffset, Int32(MSG_NOSIGNAL))
                    }
                }
            }
            switch result {
            case .success(.done(let count)):
                pendingOffset += count
                bytesWritten += count
                while let end = pendingEnds.first, end <= pendingOffset { _ = pendingEnds.popFirst() }
            case .success(.wouldBlock):
                updateInterest()
                return
            case .failure(let error):
                finish(error)
                return
            }
        }
        if bufferedBytes == 0 {
            pending.removeAll(keepingCapacity: pending.capacity <= Self.keptCapacity)
            pendingOffset = 0
            if closeWhenFlushed {
                finish(nil)
                return
            }
        }
        updateInterest()
    }

    /// Whether EPOLLOUT is in the registered mask (it is while connecting).
    private var wantsWrite: Bool

    private func updateInterest() {
        guard state == .open else { return }
        let want = bufferedBytes > 0
        guard want != wantsWrite else { return }
        wantsWrite = want
        try? loop.modify(fd, events: RS_EPOLLIN | RS_EPOLLRDHUP | (want ? RS_EPOLLOUT : 0))
    }

    private func finish(_ error: SystemError?) {
        guard state != .closed else { return }
        state = .closed
        loop.deregister(fd)
        Glibc.close(fd)
        loop.releasePromptWakeups()
        onClose(error)
    }
}
