#if canImport(Glibc)
import Glibc
#endif
import CShims
import RTCBase

/// A listening TCP socket on the loop; each accepted connection goes to `onAccept`.
public final class TCPListener: IOHandler {
    public let loop: EventLoop
    public let fd: Int32
    public let localAddress: SocketAddress
    public var onAccept: (TCPConnection) -> Void = { _ in }
    /// Accept failures that did not stop the listener (EMFILE, ENFILE, ...).
    public private(set) var acceptErrors = 0
    public private(set) var lastAcceptError: SystemError?
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
            case .failure(let error):
                acceptErrors += 1
                lastAcceptError = error
                return
            }
        }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        loop.deregister(fd)
        Glibc.close(fd)
    }
}
