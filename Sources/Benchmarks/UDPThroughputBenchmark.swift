import EventLoop
import RTCBase
import Runtime

/// Loopback UDP datagrams per second through the event loop: one socket sends in batches
/// (sendmmsg of what it queued in the loop's send buffers), the other drains with
/// recvmmsg, on one thread.
/// The in-flight window keeps the receive buffer from overflowing, so every datagram is
/// counted once sent and once received.
struct UDPThroughputBenchmark {
    let datagrams: Int
    let payloadBytes: Int
    let window: Int

    struct Result {
        let datagrams: Int
        let seconds: Double
        let cpuSeconds: Double
        let drops: Int
        var perSecond: Double { Double(datagrams) / seconds }
    }

    func run() throws -> Result {
        let loop = try EventLoop()
        let loopback = SocketAddress(ipv4: 127, 0, 0, 1, port: 0)
        let sender = try UDPSocket(loop: loop, bindTo: loopback, buffers: .init(sendBytes: 4 << 20))
        let receiver = try UDPSocket(loop: loop, bindTo: loopback, buffers: .init(receiveBytes: 4 << 20))
        var received = 0
        receiver.onDatagram = { _, _, _ in received += 1 }
        let payload = [UInt8](repeating: 0x42, count: payloadBytes)
        var sent = 0
        let cpuBefore = ProcessCPU.seconds()
        let start = MonotonicClock.now()
        func pump() {
            while sent < datagrams, sent - received < window {
                sender.send(payload, to: receiver.localAddress)
                sent += 1
            }
            sender.flush()
        }
        while received < datagrams {
            pump()
            loop.run(until: { received >= sent || received >= datagrams }, timeout: .seconds(5))
        }
        let seconds = (MonotonicClock.now() - start).milliseconds / 1000
        return Result(datagrams: received, seconds: seconds, cpuSeconds: ProcessCPU.seconds() - cpuBefore,
                      drops: receiver.stats.receiveBufferDrops)
    }
}
