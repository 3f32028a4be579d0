/// A machine that speaks over byte streams (TCP, with TLS when the destination says so):
/// every signaling adapter and the room server. It may hold several connections at once
/// (an HTTP adapter opens one per request, a server accepts many), each named by a
/// `StreamID` it chose (`.connect`) or the host chose (`.accepted`).
public protocol StreamMachine: SansIOMachine where Input == StreamInput, Output == StreamOutput {}

/// Names one connection between a stream machine and its host.
public typealias StreamID = Int

/// Where a stream machine wants a connection: a host name or address, a port, and
/// whether the bytes go through TLS (verified for `host`).
public struct StreamDestination: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: UInt16
    public var secure: Bool

    public init(host: String, port: UInt16, secure: Bool) {
        self.host = host
        self.port = port
        self.secure = secure
    }

    public var description: String { "\(secure ? "tls" : "tcp")://\(host):\(port)" }
}

/// What a stream host tells its machine.
public enum StreamInput: Sendable, Equatable {
    /// The connection asked for with `.connect` is up (TLS may still be shaking hands;
    /// writes wait for it).
    case connected(StreamID)
    /// A listening host accepted a connection from `address` (host part only).
    case accepted(StreamID, from: String)
    /// Bytes from the other end, decrypted when the stream is TLS.
    case data(StreamID, [UInt8])
    /// The other end closed the connection, after any data it sent.
    case closed(StreamID)
    /// The connection could not be made, TLS failed, or it broke: why, in words.
    case failed(StreamID, reason: String)
    /// After a write, this much is still queued in the host (a slow reader).
    case backlog(StreamID, bytes: Int, writes: Int)
    /// A listening host refused a connection because the process has no descriptor left.
    case refusedAtDescriptorLimit
}

/// What a stream machine asks its host to do.
public enum StreamOutput: Sendable, Equatable {
    /// Opens a connection named `id` to `destination`; `.connected` or `.failed` follows.
    case connect(StreamID, StreamDestination)
    case write(StreamID, [UInt8])
    /// Closes once everything written has gone out (after TLS close_notify).
    case close(StreamID)
    /// Closes at once, dropping what is not written.
    case abort(StreamID)
}
