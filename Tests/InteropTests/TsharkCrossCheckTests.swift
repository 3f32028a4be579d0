import Foundation
import Report
import Runtime
import Scenario
import WebRTCTestKit
import XCTest

/// Issue 7's independent check: one loopback call with loss and jitter injected on the
/// sending side, so a capture on `lo` sees exactly what each receiver gets, and the loss
/// and jitter rtcswarm reports compared with what tshark (Debian's Wireshark) reads from
/// that capture. SRTP (RFC 3711 3.1) leaves the RTP header in the clear.
///
/// Loss is tshark's own RTP stream analysis (`-z rtp,streams`, from sequence numbers).
/// Its jitter column needs the payload type's clock rate, which it learns only from SDP it
/// captured (SIP, RTSP); this call's SDP travels as JSON over a WebSocket, so it prints 0
/// for the dynamic payload types. The test therefore takes tshark's decoded arrival times
/// and RTP timestamps and applies RFC 3550 6.4.1 to them itself: the arrival times are the
/// kernel's capture stamps, not rtcswarm's clock.
final class TsharkCrossCheckTests: XCTestCase {
    /// The capture stamps a packet when it enters `lo`; rtcswarm when its event loop reads
    /// it. The spread of that read latency is all that separates the two jitter figures
    /// (measured: 0.006 to 0.05 ms apart at 3.4 ms); 0.3 ms leaves room for a loaded CI host.
    private let jitterToleranceMs = 0.3
    /// Packets on the wire after the receiver took its last snapshot (the capture runs on)
    /// can turn a gap at the very end into a count difference; nothing else can.
    private let lostTolerance = 2

    func testReportedLossAndJitterAgreeWithTsharkOnTheCapture() throws {
        let cell = InteropRecorder.cell(self, target: "tshark", version: TargetVersion.tshark,
                                        role: "capture cross-check of loss and jitter (rtcswarm ↔ rtcswarm, 5 % loss injected)", codec: "VP8+Opus")
        let tshark = try ExternalTool.require("tshark", installHint: "apt install tshark")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tshark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = folder.appendingPathComponent("lo.pcapng").path

        let capturing = try ManagedProcess(tshark, ["-i", "lo", "-f", "udp", "-w", capture, "-a", "duration:120"])
        defer { capturing.stop() }
        let deadline = Date().addingTimeInterval(15)
        while !capturing.text.contains("Capturing on"), capturing.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard capturing.isRunning, capturing.text.contains("Capturing on") else {
            let reason = "tshark cannot capture on lo: \(capturing.text.trimmingCharacters(in: .whitespacesAndNewlines))"
            print("skipped: \(reason)")
            throw XCTSkip(reason)
        }

        let text = """
        { name: "tshark-cross-check", duration_s: 8, seed: 7, target: { kind: "builtin-room" },
          groups: [{ role: "pair", count: 1,
                     media: { video: { codec: "vp8", resolution: "320x180", fps: 30, bitrate_kbps: 300 } },
                     impairment: { send: { loss_pct: 5, jitter_ms: 10 } } }] }
        """
        let (report, outcome) = ScenarioRunner(loaded: try ScenarioLoader.load(text: text),
                                               options: .init(folder: folder, version: "test", progress: { _ in })).run()
        cell.measured(report)
        Thread.sleep(forTimeInterval: 0.5)  // let the last packets reach the file
        capturing.stop()
        XCTAssertEqual(outcome, .passed)
        let peers = try XCTUnwrap(report.cells.first?.peers)
        XCTAssertEqual(peers.count, 2)

        let streams = try TsharkStreams(tshark: tshark, capture: capture)
        // Each reported stream names its SSRC, so other RTP on lo (another test run) is
        // left out. rtcswarm offers Opus as payload type 111 and VP8 as 96 (retransmissions
        // travel as 97 on their own SSRC, so the 96 streams hold first transmissions only).
        for kind in ["audio", "video"] {
            let ours = peers.compactMap { peer in peer.streams.first { $0.kind == kind } }
            XCTAssertEqual(ours.count, 2, "one \(kind) stream each way")
            for stream in ours {
                let ssrc = try XCTUnwrap(stream.ssrc)
                let theirs = try XCTUnwrap(streams.summaries.first { $0.ssrc == ssrc && $0.payloadType == (kind == "audio" ? 111 : 96) },
                                           "tshark saw \(kind) ssrc \(ssrc): \(streams.summaries)")
                // First-pass (network) loss: what the capture sees missing from the stream.
                let lost = Int((Double(stream.packetsExpected) * stream.lossPct / 100).rounded())
                var line = "\(kind) \(String(format: "0x%08X", ssrc)): rtcswarm lost \(lost) of \(stream.packetsExpected); "
                    + "tshark lost \(theirs.lost) of \(theirs.packets + theirs.lost)"
                XCTAssertGreaterThan(theirs.lost, 5, "the injected 5 % loss is on the wire")
                XCTAssertEqual(Double(lost), Double(theirs.lost), accuracy: Double(lostTolerance))
                if kind == "audio" {
                    let jitter = try streams.meanJitterMs(ssrc: ssrc, clockRate: 48_000)
                    line += "; jitter rtcswarm \(stream.jitterMs) ms, tshark \(jitter) ms"
                    XCTAssertGreaterThan(jitter, 1, "the injected 10 ms jitter is on the wire")
                    XCTAssertEqual(stream.jitterMs, jitter, accuracy: jitterToleranceMs)
                }
                print(line)
            }
        }
        // The sent bitrate series against the bytes on the wire from the two peers' ports
        // (everything after the send impairment, as the kernel saw it).
        let ports = Set(streams.summaries.filter { summary in peers.contains { $0.streams.contains { $0.ssrc == summary.ssrc } } }.map(\.sourcePort))
        XCTAssertEqual(ports.count, 2, "one port per peer")
        let wire = Double(try streams.udpPayloadBytes(fromPorts: ports))
        let series = try XCTUnwrap(report.cells.first?.timeSeries)
        var previous = 0.0
        let reported = series.reduce(0.0) { total, sample in
            defer { previous = sample.tS }
            return total + sample.sendKbps * 1000 / 8 * (sample.tS - previous)
        }
        print("bitrate: the series sums to \(Int(reported)) bytes sent, the capture holds \(Int(wire)) from the peers' ports")
        XCTAssertGreaterThan(series.map(\.sendKbps).max() ?? 0, 300, "two 300 kbit/s calls' worth while they ran")
        XCTAssertEqual(reported, wire, accuracy: wire * 0.02)
    }
}

/// What tshark reads from a capture: its RTP stream table, and each packet's arrival time
/// and RTP timestamp. RTP on ICE's shared ports is found by the `rtp_udp` heuristic.
private struct TsharkStreams {
    struct Summary: CustomStringConvertible {
        var ssrc: UInt32
        var sourcePort: Int
        var payloadType: Int
        var packets: Int
        var lost: Int
        var description: String { "ssrc \(ssrc) pt \(payloadType): \(packets) packets, \(lost) lost" }
    }

    let tshark: URL
    let capture: String
    let summaries: [Summary]

    init(tshark: URL, capture: String) throws {
        self.tshark = tshark
        self.capture = capture
        let table = try Self.read(tshark, ["-r", capture, "--enable-heuristic", "rtp_udp", "-q", "-z", "rtp,streams"])
        // Rows: start end src sport dst dport SSRC payload packets lost (pct) ...; the
        // payload column reads RTPType-<pt> for dynamic payload types.
        summaries = table.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 10, fields[6].hasPrefix("0x"), let ssrc = UInt32(fields[6].dropFirst(2), radix: 16),
                  let sourcePort = Int(fields[3]), let payloadType = Int(fields[7].split(separator: "-").last ?? ""),
                  let packets = Int(fields[8]), let lost = Int(fields[9]) else { return nil }
            return Summary(ssrc: ssrc, sourcePort: sourcePort, payloadType: payloadType, packets: packets, lost: lost)
        }
    }

    /// UDP payload bytes the capture holds from `ports` (RTP, RTCP, STUN and DTLS alike).
    func udpPayloadBytes(fromPorts ports: Set<Int>) throws -> Int {
        let rows = try Self.read(tshark, ["-r", capture, "-T", "fields", "-e", "udp.srcport", "-e", "udp.length"])
        return rows.split(separator: "\n").reduce(0) { total, row in
            let columns = row.split(separator: "\t")
            guard columns.count == 2, let port = Int(columns[0]), ports.contains(port), let length = Int(columns[1]) else { return total }
            return total + length - 8
        }
    }

    /// RFC 3550 jitter over the capture's arrival times of one SSRC, mean over its packets.
    func meanJitterMs(ssrc: UInt32, clockRate: Int) throws -> Double {
        let rows = try Self.read(tshark, ["-r", capture, "--enable-heuristic", "rtp_udp", "-Y", "rtp.ssrc == \(ssrc)",
                                          "-T", "fields", "-e", "frame.time_epoch", "-e", "rtp.timestamp"])
        var oracle = RFC3550JitterOracle(clockRate: clockRate)
        var last: UInt32?
        var unwrapped = 0.0
        for row in rows.split(separator: "\n") {
            let columns = row.split(separator: "\t")
            guard columns.count == 2, let arrival = Double(columns[0]), let timestamp = UInt32(columns[1]) else { continue }
            if let last { unwrapped += Double(Int32(bitPattern: timestamp &- last)) }
            last = timestamp
            oracle.add(arrivalSeconds: arrival, timestamp: unwrapped)
        }
        return oracle.meanMs
    }

    private static func read(_ tshark: URL, _ arguments: [String]) throws -> String {
        let (status, output) = try ExternalTool.run(tshark, arguments)
        guard status == 0 else { throw TsharkError(message: "tshark \(arguments.joined(separator: " ")) exited \(status): \(output)") }
        return output
    }
}

private struct TsharkError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
