#if canImport(Glibc)
import Glibc
#endif
import CShims
import RTCBase

/// A listening TCP socket on the loop; each accepted connection goes to `onAccept`.
///
/// At the file-descriptor limit (EMFILE, ENFILE) `accept` fails while the connection
/// stays in the backlog, and a level-triggered loop would wake again at once, forever.
/// So the listener keeps one spare descriptor: it frees it, accepts the waiting
/// connection, closes it at once (the client sees the connection end) and takes the spare
/// again. When even that is impossible it stops listening for `backoff`.
public final class TCPListener: IOHandler {
    public let loop: EventLoop
    public let fd: Int32
    public let localAddress: SocketAddress
    public var onAccept: (TCPConnection) -> Void = { _ in }
    /// Called for each connection closed unserved at the descriptor limit.
    public var onRefused: () -> Void = {}
    /// Accept failures that did not stop the listener (EMFILE, ENFILE, ...).
    public private(set) var acceptErrors = 0
    public private(set) var lastAcceptError: SystemError?
    /// Connections accepted and closed at once because descriptors ran out.
    public private(set) var refusedAtDescriptorLimit = 0
    /// How long accepting pauses when not even the spare descriptor is left.
    public static let backoff = Duration.milliseconds(100)
    private var spare: Int32 = -1
    private var paused = false
    private var closed = false

    public init(loop: EventLoop, address: SocketAddress, backlog: Int32 = 4096) throws(SystemError) {
        self.loop = loop
        let family = address.family == .ipv4 ? UInt16(RS_AF_INET) : UInt16(RS_AF_INET6)
        let fd = try blockingCall("socket(TCP)") { rs_tcp_socket(family) }
        self.fd = fd
        do {
            try blockingCall("setsockopt(SO_REUSEADDR)") { rs_set_reuse_address(fd) }
            var c = address.cAddress
            try blockingCall("bind(\(address))") { rs_bind(fd, &c) }
            try blockingCall("listen") { rs_listen(fd, backlog) }
            var local = rs_address()
            try blockingCall("getsockname") { rs_local_address(fd, &local) }
            localAddress = SocketAddress(local) ?? address
            try loop.register(fd, events: RS_EPOLLIN, handler: self)
            spare = Self.openSpare()
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    deinit { close() }

    public func handleEvents(_ events: UInt32) {
        while !closed {
            var peer = rs_address()
            let result = Result { () throws(SystemError) -> IOResult<Int32> in
                try systemCall("accept4") { rs_accept(fd, &peer) }
            }
            switch result {
            case .success(.done(let client)):
                rs_set_tcp_nodelay(client)
                guard let remote = SocketAddress(peer),
                      let connection = try? TCPConnection(loop: loop, fd: client, remote: remote, state: .open)
                else { continue }
                onAccept(connection)
            case .success(.wouldBlock):
                return
            case .failure(let error) where error.errno == EMFILE || error.errno == ENFILE:
                acceptErrors += 1
                lastAcceptError = error
                switch refuseOneWithSpare() {
                case .refused: continue
                case .nothingWaiting: return
                case .noSpare: return pause()
                }
            case .failure(let error):
                acceptErrors += 1
                lastAcceptError = error
                return
            }
        }
    }

    private enum Refusal { case refused, nothingWaiting, noSpare }

    /// Frees the spare descriptor to accept and close one waiting connection.
    private func refuseOneWithSpare() -> Refusal {
        guard spare >= 0 else { return .noSpare }
        Glibc.close(spare)
        var peer = rs_address()
        let client = rs_accept(fd, &peer)
        let failure = Glibc.errno
        if client >= 0 {
            Glibc.close(client)
            refusedAtDescriptorLimit += 1
            onRefused()
        }
        spare = Self.openSpare()
        if client >= 0 { return .refused }
        return failure == EAGAIN || failure == EWOULDBLOCK ? .nothingWaiting : .noSpare
    }

    /// Stops watching the socket for `backoff`, then looks again (and takes a spare if one
    /// is free by then): no busy loop while descriptors are exhausted.
    private func pause() {
        guard !paused else { return }
        paused = true
        try? loop.modify(fd, events: 0)
        _ = loop.schedule(after: Self.backoff) { [weak self] in
            guard let self, !self.closed else { return }
            self.paused = false
            if self.spare < 0 { self.spare = Self.openSpare() }
            try? self.loop.modify(self.fd, events: RS_EPOLLIN)
        }
    }

    private static func openSpare() -> Int32 { open("/dev/null", O_RDONLY | O_CLOEXEC) }

    public func close() {
        guard !closed else { return }
        closed = true
        loop.deregister(fd)
        Glibc.close(fd)
        if spare >= 0 { Glibc.close(spare) }
        spare = -1
    }
}
