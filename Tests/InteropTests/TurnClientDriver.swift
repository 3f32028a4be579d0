import EventLoop
import ICE
import RTCBase
import WebRTCTestKit

/// Drives a sans-IO `TurnClient` over a real UDP socket on an event loop: datagrams in,
/// transmits out, its timers on a loop timer, events and relayed data collected.
final class TurnClientDriver {
    let socket: UDPSocket
    private(set) var client: TurnClient
    private(set) var events: [TurnEvent] = []
    private(set) var received: [(peer: SocketAddress, payload: [UInt8])] = []
    private var timer: TimerID?

    init(loop: EventLoop, server: SocketAddress) throws {
        socket = try UDPSocket(loop: loop, bindTo: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        client = TurnClient(server: server, local: socket.localAddress, username: Coturn.username, password: Coturn.password)
        socket.onDatagram = { [unowned self] bytes, source, _ in
            if let data = client.handle(Array(bytes), from: source, now: socket.loop.now()) { received.append(data) }
            pump()
        }
    }

    /// Runs `action` on the client, then sends what it queued.
    func perform(_ action: (inout TurnClient, Instant) -> Void) {
        action(&client, socket.loop.now())
        pump()
    }

    /// Sends `payload` to `peer` through the relay (Send indication or ChannelData); returns
    /// the datagram that went to the server.
    @discardableResult
    func send(_ payload: [UInt8], to peer: SocketAddress) -> [UInt8]? {
        guard let transmit = client.wrap(payload, for: peer) else { return nil }
        socket.send(transmit.payload, to: transmit.destination)
        socket.flush()
        return transmit.payload
    }

    private func pump() {
        while let transmit = client.pollTransmit() { socket.send(transmit.payload, to: transmit.destination) }
        // Now, not at the end of a loop iteration: the test may call this outside the loop.
        socket.flush()
        while let event = client.pollEvent() { events.append(event) }
        if let timer { socket.loop.cancel(timer) }
        timer = client.pollTimeout().map { deadline in
            socket.loop.schedule(at: deadline) { [unowned self] in
                timer = nil
                client.handleTimeout(now: socket.loop.now())
                pump()
            }
        }
    }

    func close() {
        if let timer { socket.loop.cancel(timer) }
        socket.close()
    }
}
