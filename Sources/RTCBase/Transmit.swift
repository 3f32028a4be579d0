/// Bytes a sans-IO state machine wants sent: one datagram for UDP, or the next chunk of a
/// stream for TCP. The driver owns the socket and decides when it goes out.
public struct Transmit: Sendable, Equatable {
    /// Where the bytes go.
    public var destination: SocketAddress
    /// The local address to send from, when the machine has several (ICE host candidates).
    public var source: SocketAddress?
    public var payload: [UInt8]

    public init(destination: SocketAddress, source: SocketAddress? = nil, payload: [UInt8]) {
        self.destination = destination
        self.source = source
        self.payload = payload
    }
}
