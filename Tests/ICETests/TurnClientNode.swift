import ICE
import RTCBase

/// A TurnClient on the virtual network, keeping what it received and reported.
struct TurnClientNode: Endpoint {
    var client: TurnClient
    var received: [(peer: SocketAddress, payload: [UInt8])] = []
    var events: [(at: Instant, event: TurnEvent)] = []
    var now = Instant.zero

    mutating func handle(_ bytes: [UInt8], from source: SocketAddress, to local: SocketAddress, now: Instant) -> [UInt8]? {
        self.now = now
        let data = client.handle(bytes, from: source, now: now)
        if let data { received.append(data) }
        collect()
        return data?.payload
    }

    mutating func handleTimeout(now: Instant) {
        self.now = now
        client.handleTimeout(now: now)
        collect()
    }

    mutating func collect() {
        while let event = client.pollEvent() { events.append((now, event)) }
    }

    mutating func pollTransmit() -> Transmit? { client.pollTransmit() }
    func pollTimeout() -> Instant? { client.pollTimeout() }
}
