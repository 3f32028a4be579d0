import RTCBase
import RTP
import RTPSession

/// The receive path of one video stream per packet, as a player runs it after SRTP:
/// parsing the RTP header (with two header extensions, reading the transport-wide
/// sequence number), then `RtpSession.handleRtp` for loss, jitter and NACK accounting,
/// with `handleTimeout` when due and its RTCP drained. Packets arrive 1200 bytes long,
/// 4 per frame at 30 frames per second (about 1 Mbit/s), in batches of `batch`; each
/// phase of a batch is timed apart. With `lossEvery`, one packet in that many is never
/// delivered, so NACKs are generated.
struct RtpReceiveBenchmark {
    var packets = 1_000_000
    var batch = 256
    var lossEvery: Int?
    /// Packets received first, untimed.
    var warmup = 25_600

    private static let ssrc: UInt32 = 0x1234_5678
    private static let packetsPerFrame = 4
    private static let packetSpacing = Duration.nanoseconds(1_000_000_000 / 120)

    func run() throws {
        _ = try measure(warmup)
        let (parse, session, sent, received, delivered) = try measure(packets)
        let loss = lossEvery.map { "1 in \($0) lost" } ?? "no loss"
        print("rtp parse 1200 B + 2 extensions (\(loss)): \(parse.perOperation(received, per: "packet"))")
        print("rtp RtpSession.handleRtp + timeouts (\(loss), NACK on): \(session.perOperation(received, per: "packet")); "
              + "\(delivered) of \(received) received packets delivered, \(sent - received) lost")
    }

    /// Times at least `count` packets sent (whole batches); returns the phases and how many
    /// packets were sent, received (not lost) and delivered by the session.
    private func measure(_ count: Int) throws
        -> (parse: Stopwatch, session: Stopwatch, sent: Int, received: Int, delivered: Int)
    {
        var now = Instant(nanoseconds: 1_000_000_000)
        var rtp = RtpSession(configuration: .init(cname: "bench", seed: 1, feedbackSsrc: 1), now: now)
        rtp.addReceiveStream(.init(ssrc: Self.ssrc, clockRate: 90_000, nack: true))
        let template = BenchPacket.rtp(size: 1200, sequence: 0, ssrc: Self.ssrc, extensions: BenchPacket.browserExtensions)
        var buffers = [[UInt8]](repeating: template, count: batch)
        var parsed: [RtpPacket] = []
        parsed.reserveCapacity(batch)
        var parse = Stopwatch()
        var session = Stopwatch()
        var sent = 0
        var received = 0
        var delivered = 0
        var transportSequences = 0
        var arrivals: [Instant] = []
        arrivals.reserveCapacity(batch)
        while sent < count {
            // The "network": fills the batch with the next packets that are not lost.
            arrivals.removeAll(keepingCapacity: true)
            var filled = 0
            while filled < batch {
                let index = sent
                sent += 1
                now = now + Self.packetSpacing
                if let lossEvery, index % lossEvery == lossEvery - 1 { continue }
                BenchPacket.setSequence(UInt16(truncatingIfNeeded: index), in: &buffers[filled])
                BenchPacket.setTimestamp(UInt32(truncatingIfNeeded: index / Self.packetsPerFrame * 3000), in: &buffers[filled])
                arrivals.append(now)
                filled += 1
            }
            parse.start()
            for buffer in buffers {
                let packet = try RtpPacket(parsing: buffer)
                if packet.extensionElement(id: 3) != nil { transportSequences += 1 }
                parsed.append(packet)
            }
            parse.stop()
            session.start()
            for (packet, arrival) in zip(parsed, arrivals) {
                if rtp.handleRtp(packet, now: arrival) != nil { delivered += 1 }
                if let due = rtp.pollTimeout(), due <= arrival {
                    rtp.handleTimeout(now: arrival)
                    while rtp.pollTransmit() != nil {}
                }
            }
            session.stop()
            received += parsed.count
            parsed.removeAll(keepingCapacity: true)
        }
        guard transportSequences == received else {
            throw BenchmarkError("rtp: \(transportSequences) extensions read from \(received) packets")
        }
        return (parse, session, sent, received, delivered)
    }
}
