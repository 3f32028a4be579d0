#if canImport(Glibc)
import Glibc
#endif
import CShims

/// Reads newline-separated text from a pipe on the loop (a worker process's stdout):
/// each complete line goes to `onLine`, the end of the stream to `onEnd`.
public final class LineReader: IOHandler {
    public let loop: EventLoop
    public let fd: Int32
    public var onLine: (String) -> Void = { _ in }
    public var onEnd: () -> Void = {}
    private var pending: [UInt8] = []
    private var ended = false

    /// Takes over `fd` (made non-blocking here); it is closed at the end of the stream.
    public init(loop: EventLoop, fd: Int32) throws(SystemError) {
        self.loop = loop
        self.fd = fd
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        try loop.register(fd, events: RS_EPOLLIN, handler: self)
    }

    public func handleEvents(_ events: UInt32) {
        let buffer = loop.readScratch
        while !ended {
            let result = Result { () throws(SystemError) -> IOResult<Int> in
                try systemCall("read(pipe)") { read(fd, buffer.baseAddress, buffer.count) }
            }
            switch result {
            case .success(.done(0)), .failure:
                finish()
            case .success(.done(let count)):
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                deliverLines()
            case .success(.wouldBlock):
                return
            }
        }
    }

    private func deliverLines() {
        var start = 0
        for index in pending.indices where pending[index] == 0x0a {
            onLine(String(decoding: pending[start..<index], as: UTF8.self))
            start = index + 1
        }
        pending.removeFirst(start)
    }

    private func finish() {
        guard !ended else { return }
        ended = true
        if !pending.isEmpty { onLine(String(decoding: pending, as: UTF8.self)) }
        pending = []
        loop.deregister(fd)
        close(fd)
        onEnd()
    }
}
