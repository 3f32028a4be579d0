import PeerCore
import RTCBase

/// A datagram machine with something to send before its host releases the socket.
protocol ClosesPolitely: AnyObject {
    /// Queues the goodbye; the host sends it, then closes.
    func close(now: Instant)
}

/// DTLS close_notify (RFC 5246 7.2.1): SRS ends a session only on it or a 30 s STUN timeout.
extension Peer: ClosesPolitely {}
