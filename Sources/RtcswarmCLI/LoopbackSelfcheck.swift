import EventLoop
import Metrics
import RTCBase
import Runtime

/// A real end-to-end exercise of the harness's own machinery on loopback: pairs of UDP
/// peers on one event loop send each other timestamped, sequenced datagrams at a fixed
/// rate; the receivers count loss and one-way latency (both ends share the monotonic
/// clock), and the loop's own lag is recorded. It needs no server, so it runs anywhere.
public struct LoopbackSelfcheck {
    public struct Settings: Sendable {
        public var pairs: Int
        public var duration: Duration
        public var packetsPerSecond: Int
        public var payloadBytes: Int

        public init(pairs: Int, duration: Duration, packetsPerSecond: Int, payloadBytes: Int) {
            self.pairs = pairs
            self.duration = duration
            self.packetsPerSecond = packetsPerSecond
            self.payloadBytes = payloadBytes
        }
    }

    public struct Distribution: Codable, Sendable, Equatable {
        public var p50: Double
        public var p99: Double
        public var max: Double
        public var mean: Double
    }

    public struct Result: Codable, Sendable {
        public var peers: Int
        public var durationSeconds: Double
        public var packetsPerSecondPerPeer: Int
        public var payloadBytes: Int
        public var packetsSent: Int
        public var packetsReceived: Int
        public var lossPct: Double
        public var latencyMs: Distribution
        public var loopLagMs: Distribution
        public var socketDrops: Int
        public var sendFailures: Int
        public var cpuSeconds: Double
        public var cpuMsPerPeerSecond: Double
        public var maxResidentMB: Double
        public var invalidReason: String?
    }

    /// One direction of one pair: what the receiving side saw.
    private final class StreamState {
        var received = 0
        var highestSequence = -1
        var latencies: [Double] = []
    }

    public let settings: Settings

    public init(settings: Settings) { self.settings = settings }

    /// Runs on the calling thread; `progress` is called about once a second.
    public func run(progress: (String) -> Void = { _ in }) throws(SystemError) -> Result {
        let loop = try EventLoop()
        let loopback = SocketAddress(ipv4: 127, 0, 0, 1, port: 0)
        let peerCount = settings.pairs * 2
        let buffers = SocketBufferSizes(receiveBytes: 1 << 20)
        var sockets: [UDPSocket] = []
        for _ in 0..<peerCount { sockets.append(try UDPSocket(loop: loop, bindTo: loopback, buffers: buffers)) }
        let streams = (0..<peerCount).map { _ in StreamState() }
        var sent = 0

        for (index, socket) in sockets.enumerated() {
            let stream = streams[index]
            socket.onDatagram = { bytes, _, _ in
                guard bytes.count >= 12 else { return }
                let sequence = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
                let sentAt = bytes[4..<12].reduce(Int64(0)) { $0 << 8 | Int64($1) }
                stream.received += 1
                stream.highestSequence = max(stream.highestSequence, sequence)
                stream.latencies.append(Double(MonotonicClock.now().nanoseconds - sentAt) / 1e6)
            }
        }

        let start = loop.now() + .milliseconds(20)
        let end = start + settings.duration
        let interval = Duration.nanoseconds(1_000_000_000 / Int64(max(1, settings.packetsPerSecond)))
        let payloadBytes = max(12, settings.payloadBytes)
        for (index, socket) in sockets.enumerated() {
            let partner = sockets[index ^ 1].localAddress
            var payload = [UInt8](repeating: 0x5a, count: payloadBytes)
            var sequence = 0
            // Spread the peers over one interval so they do not all send at once.
            let phase = Duration.nanoseconds(interval.nanoseconds * Int64(index) / Int64(peerCount))
            func tick() {
                let now = loop.now()
                for shift in 0..<4 { payload[shift] = UInt8(truncatingIfNeeded: sequence >> (24 - 8 * shift)) }
                for shift in 0..<8 { payload[4 + shift] = UInt8(truncatingIfNeeded: now.nanoseconds >> Int64(56 - 8 * shift)) }
                socket.send(payload, to: partner)
                sent += 1
                sequence += 1
                let next = start + phase + interval * sequence
                if next < end { loop.schedule(at: next, tick) }
            }
            loop.schedule(at: start + phase, tick)
        }

        let cpuBefore = ProcessCPU.seconds()
        var nextProgress = start + .seconds(1)
        let totalSeconds = settings.duration.milliseconds / 1000
        while loop.now() < end + .milliseconds(200) {
            loop.run(until: { loop.now() >= nextProgress }, timeout: .seconds(1))
            if loop.now() >= nextProgress, nextProgress <= end {
                let elapsed = (loop.now() - start).milliseconds / 1000
                let received = streams.reduce(0) { $0 + $1.received }
                progress("selfcheck: \(peerCount) peers, \(Int(min(elapsed, totalSeconds)))/\(Int(totalSeconds)) s, "
                         + "\(sent) sent, \(received) received")
                nextProgress = nextProgress + .seconds(1)
            }
        }
        let cpuSeconds = ProcessCPU.seconds() - cpuBefore
        sockets.forEach { $0.close() }

        let expected = streams.reduce(0) { $0 + $1.highestSequence + 1 }
        let received = streams.reduce(0) { $0 + $1.received }
        let drops = sockets.reduce(0) { $0 + $1.stats.receiveBufferDrops }
        let lag = loop.timerLateness
        let lagDistribution = Distribution(p50: lag.percentile(50) ?? 0, p99: lag.percentile(99) ?? 0,
                                           max: lag.max ?? 0, mean: lag.mean ?? 0)
        var invalidReason: String?
        if lagDistribution.p99 > LoopStalls.bound.milliseconds {
            invalidReason = "event-loop lag p99 \(lagDistribution.p99) ms exceeds \(Int(LoopStalls.bound.milliseconds)) ms"
        } else if drops > 0 {
            invalidReason = "\(drops) datagrams dropped by full socket receive buffers"
        }
        return Result(
            peers: peerCount,
            durationSeconds: totalSeconds,
            packetsPerSecondPerPeer: settings.packetsPerSecond,
            payloadBytes: payloadBytes,
            packetsSent: sent,
            packetsReceived: received,
            lossPct: expected == 0 ? 0 : Double(expected - received) / Double(expected) * 100,
            latencyMs: Self.distribution(streams.flatMap(\.latencies)),
            loopLagMs: lagDistribution,
            socketDrops: drops,
            sendFailures: sockets.reduce(0) { $0 + $1.stats.sendFailures },
            cpuSeconds: cpuSeconds,
            cpuMsPerPeerSecond: cpuSeconds * 1000 / (Double(peerCount) * max(totalSeconds, 1e-9)),
            maxResidentMB: ProcessCPU.maxResidentMegabytes(),
            invalidReason: invalidReason
        )
    }

    /// Exact percentiles (nearest rank) of the samples.
    static func distribution(_ samples: [Double]) -> Distribution {
        guard !samples.isEmpty else { return Distribution(p50: 0, p99: 0, max: 0, mean: 0) }
        let sorted = samples.sorted()
        func rank(_ percent: Double) -> Double {
            sorted[min(sorted.count - 1, max(0, Int((percent / 100 * Double(sorted.count)).rounded(.up)) - 1))]
        }
        return Distribution(p50: rank(50), p99: rank(99), max: sorted[sorted.count - 1],
                            mean: sorted.reduce(0, +) / Double(sorted.count))
    }
}
