import Foundation
import RTCBase
import RTP

/// VP8 frames through RTP and back, per packet: the sender's `Vp8Packetizer` plus writing
/// each RTP header (into a reused `ByteWriter`, one array per packet out), then the
/// receiver's parse and `FrameAssembler<Vp8Depacketizer>` until the frame comes out.
/// Frames are 4,166 bytes (1 Mbit/s at 30 fps), packets at most 1,160 bytes of payload
/// (a 1,200-byte MTU less header, extensions and SRTP tag), in batches of `batch` frames.
struct Vp8PacketizationBenchmark {
    var frames = 100_000
    var frameBytes = 4_166
    var maxPayloadSize = 1_160
    var batch = 64
    /// Frames sent through first, untimed.
    var warmup = 2_048

    func run() throws {
        _ = try measure(warmup)
        let (packetize, assemble, packets) = try measure(frames)
        print("rtp vp8 packetize + RTP header, \(frameBytes) B frames: \(packetize.perOperation(packets, per: "packet")) "
              + "(" + String(format: "%.2f", Double(packets) / Double(frames)) + " packets/frame)")
        print("rtp vp8 parse + assemble: \(assemble.perOperation(packets, per: "packet")); "
              + "both \(Stopwatch.sum(packetize, assemble).perOperation(frames, per: "frame", unit: .microseconds))")
    }

    private func measure(_ count: Int) throws -> (packetize: Stopwatch, assemble: Stopwatch, packets: Int) {
        var frame = (0..<frameBytes).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        frame[0] = 0x01  // VP8 payload header: P=1, an interframe (RFC 7741 4.3)
        var packetizer = Vp8Packetizer()
        var assembler = FrameAssembler(depacketizer: Vp8Depacketizer())
        var header = RtpHeader(payloadType: 96, sequenceNumber: 0, timestamp: 0, ssrc: 0x1234_5678)
        var writer = ByteWriter(capacity: 1_500)
        var wire: [[UInt8]] = []
        var packetize = Stopwatch()
        var assemble = Stopwatch()
        var packets = 0
        var assembledBytes = 0
        let now = Instant(nanoseconds: 1_000_000_000)
        for _ in 0..<(count / batch) {
            wire.removeAll(keepingCapacity: true)
            packetize.start()
            for _ in 0..<batch {
                for payload in packetizer.packetize(frame, isKeyframe: false, maxPayloadSize: maxPayloadSize) {
                    header.marker = payload.marker
                    writer.reset()
                    header.write(payload: payload.bytes, to: &writer)
                    wire.append(writer.bytes)
                    header.sequenceNumber &+= 1
                }
                header.timestamp &+= 3_000
            }
            packetize.stop()
            assemble.start()
            for bytes in wire {
                assembler.insert(try RtpPacket(parsing: bytes), now: now)
                while let assembled = assembler.pollFrame() { assembledBytes += assembled.data.count }
            }
            assemble.stop()
            packets += wire.count
        }
        guard assembledBytes == count / batch * batch * frameBytes else {
            throw BenchmarkError("vp8: \(assembledBytes) bytes assembled, \(assembler.statistics)")
        }
        return (packetize, assemble, packets)
    }
}
