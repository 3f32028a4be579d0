import RTCBase

/// A peer that sends every datagram back to where it came from.
struct EchoPeer: Endpoint {
    var queue: [Transmit] = []
    var received: [[UInt8]] = []

    mutating func handle(_ bytes: [UInt8], from source: SocketAddress, to local: SocketAddress, now: Instant) -> [UInt8]? {
        received.append(bytes)
        queue.append(Transmit(destination: source, source: local, payload: bytes))
        return nil
    }

    mutating func handleTimeout(now: Instant) {}
    mutating func pollTransmit() -> Transmit? { queue.isEmpty ? nil : queue.removeFirst() }
    func pollTimeout() -> Instant? { nil }
}
