#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which call, and the `errno` it left.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    public let call: String
    public let errno: Int32

    public init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String {
        "\(call) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

/// The outcome of a non-blocking system call that did not fail.
public enum IOResult<Value> {
    case done(Value)
    /// EAGAIN/EWOULDBLOCK: try again when the descriptor is ready.
    case wouldBlock
}

/// Runs one system call the way every call in rtcswarm is run: retried on EINTR,
/// EAGAIN/EWOULDBLOCK reported as `.wouldBlock`, any other failure thrown with its errno.
/// `body` returns the call's result, negative on failure with `errno` set.
@inline(__always)
public func systemCall<Result: BinaryInteger>(
    _ name: @autoclosure () -> String, _ body: () -> Result
) throws(SystemError) -> IOResult<Result> {
    while true {
        let result = body()
        if result >= 0 { return .done(result) }
        let code = Glibc.errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        throw SystemError(name(), errno: code)
    }
}

/// `systemCall` for calls that never legitimately block (socket, bind, epoll_ctl, ...).
@inline(__always)
@discardableResult
public func blockingCall<Result: BinaryInteger>(
    _ name: @autoclosure () -> String, _ body: () -> Result
) throws(SystemError) -> Result {
    switch try systemCall(name(), body) {
    case .done(let value): return value
    case .wouldBlock: throw SystemError(name(), errno: EAGAIN)
    }
}
