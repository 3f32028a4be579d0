import Foundation
import Glibc
import RTCBase
import SCTP
import WebRTCTestKit
import XCTest

/// rtcswarm's SCTP association and data channels against aiortc's RTCSctpTransport
/// (aiortc_sctp_peer.py), one SCTP packet per UDP datagram on 127.0.0.1 in place of DTLS:
/// both sides send INIT, each opens a channel to the other, and messages of 1 B, 1 KB,
/// 16 KB and 64 KB echo byte for byte (issue 20).
final class AiortcSctpInteropTests: XCTestCase {
    static let sizes = [1, 1024, 16_384, 65_536]

    func testRtcswarmAsDtlsClientOpensAndEchoesChannelsWithAiortc() throws {
        try exchange(rtcswarm: .client)
    }

    func testRtcswarmAsDtlsServerOpensAndEchoesChannelsWithAiortc() throws {
        try exchange(rtcswarm: .server)
    }

    private func pattern(_ size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ size) } }

    private func exchange(rtcswarm role: SctpAssociation.Role) throws {
        let python = try PythonPeers.python()
        let socket = try LoopbackDatagramSocket()
        defer { socket.close() }
        let aiortc = try JSONLinesProcess(python, ["-u", PythonPeers.script("aiortc_sctp_peer.py"), "--role",
                                                   role == .client ? "server" : "client", "--port", "\(socket.port)",
                                                   "--open", "from-aiortc"])
        defer { aiortc.stop() }
        guard let ready = aiortc.next(ofType: ["ready"], timeout: 10), let port = ready["port"] as? Int else {
            throw ExternalToolError("aiortc_sctp_peer.py did not start: \(aiortc.standardError.suffix(1500))")
        }
        let clock = ContinuousClock()
        let origin = clock.now
        func now() -> Instant { Instant(nanoseconds: (clock.now - origin).nanoseconds) }
        var association = SctpAssociation(configuration: .init(role: role), seed: UInt64(port))
        association.connect(now: now())
        let id = try association.openChannel(DataChannelOptions(label: "from-rtcswarm"), now: now())
        var events: [SctpEvent] = []
        var echoed = 0
        var sent = false
        func pump(until done: () -> Bool, timeout: Duration) -> Bool {
            let deadline = now() + timeout
            while now() < deadline {
                while let packet = association.pollTransmit() { socket.send(packet, to: UInt16(port)) }
                while let event = association.pollEvent() {
                    events.append(event)
                    if case .message(let message) = event, message.channel != id {
                        try? association.send(message.bytes, isString: message.isString, on: message.channel, now: now())
                        echoed += 1
                    }
                    if case .channelOpen(let channel) = event, channel.id == id, !sent {
                        for size in Self.sizes { try? association.send(pattern(size), on: id, now: now()) }
                        try? association.send(Array("text from rtcswarm".utf8), isString: true, on: id, now: now())
                        sent = true
                    }
                }
                if done() { return true }
                let wake = min(association.pollTimeout() ?? deadline, deadline)
                let waitMs = max(0, min(20, Int((wake - now()).milliseconds)))
                if let packet = socket.receive(timeoutMs: waitMs) { association.handle(packet, now: now()) }
                if let due = association.pollTimeout(), due <= now() { association.handleTimeout(now: now()) }
            }
            return done()
        }
        let messages = { events.compactMap { if case .message(let message) = $0 { message } else { nil } } }
        let finished = pump(until: { messages().filter { $0.channel == id }.count == Self.sizes.count + 1 && echoed == Self.sizes.count + 1 },
                            timeout: .seconds(20))
        XCTAssertTrue(finished, "\(messages().count) messages, \(echoed) echoed; aiortc: \(aiortc.standardError.suffix(1500))")
        _ = pump(until: { false }, timeout: .milliseconds(300))
        // SHUTDOWN before aiortc is told to stop (its stop() sends ABORT).
        association.close(now: now())
        let closed = pump(until: { events.contains(.closed(.shutdown)) }, timeout: .seconds(3))
        XCTAssertTrue(closed, "SHUTDOWN with aiortc: \(events.last.map { "\($0)".prefix(80) } ?? "none")")
        try aiortc.send(["type": "bye"])
        guard let summary = aiortc.next(ofType: ["summary"], timeout: 10) else {
            throw ExternalToolError("aiortc gave no summary: \(aiortc.standardError.suffix(1500))")
        }
        let echoes = messages().filter { $0.channel == id }
        XCTAssertEqual(echoes.map(\.bytes.count), Self.sizes + [18])
        XCTAssertTrue(echoes.map(\.bytes) == Self.sizes.map(pattern) + [Array("text from rtcswarm".utf8)], "aiortc echoed byte for byte")
        XCTAssertEqual(echoes.map(\.isString), [false, false, false, false, true])
        XCTAssertEqual(summary["received"] as? Int, Self.sizes.count + 1, "aiortc got every message rtcswarm sent")
        XCTAssertEqual(summary["echoSizes"] as? [Int], Self.sizes + [16])
        XCTAssertEqual(summary["echoesMatch"] as? Bool, true, "rtcswarm echoed aiortc's messages byte for byte")
        let opened = association.openChannels
        XCTAssertEqual(opened.map(\.options.label).sorted(), ["from-aiortc", "from-rtcswarm"])
        XCTAssertEqual(opened.first { $0.options.label == "from-rtcswarm" }?.id, role == .client ? 0 : 1, "RFC 8832 6 parity")
        XCTAssertEqual(opened.first { $0.options.label == "from-aiortc" }?.id, role == .client ? 1 : 0)
        let counters = association.counters
        XCTAssertEqual(counters.malformedPackets + counters.badChecksums + counters.wrongTags + counters.malformedDCEP, 0)
        print("rtcswarm SCTP (\(role)) vs aiortc: \(counters.messagesSent) sent, \(counters.messagesReceived) received, " +
              "\(counters.packetsSent)/\(counters.packetsReceived) packets out/in; aiortc opened \(summary["opened"] ?? [])")
    }
}

/// A UDP socket on 127.0.0.1 with an ephemeral port, blocking with a timeout.
private final class LoopbackDatagramSocket {
    let fd: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.fd = fd
        guard fd >= 0 else { throw ExternalToolError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ExternalToolError("bind(127.0.0.1:0) failed: errno \(errno)") }
        port = UInt16(bigEndian: address.sin_port)
    }

    func send(_ bytes: [UInt8], to port: UInt16) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    func receive(timeoutMs: Int) -> [UInt8]? {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeoutMs)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? Array(buffer.prefix(count)) : nil
    }

    func close() { _ = Glibc.close(fd) }
}
