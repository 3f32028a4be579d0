import RTCBase

/// A sans-IO endpoint a `VirtualNetwork` can drive: a `Peer`, a server core, a test
/// double. The shape of ARCHITECTURE.md's state machines, for datagrams.
public protocol VirtualNode: AnyObject {
    /// One datagram from `source`, received on the node's socket bound to `local`.
    func handle(datagram: [UInt8], from source: SocketAddress, to local: SocketAddress, now: Instant)
    func handleTimeout(now: Instant)
    /// The next datagram to send; a nil `source` means the node's first address.
    func pollTransmit() -> Transmit?
    func pollTimeout() -> Instant?
}
