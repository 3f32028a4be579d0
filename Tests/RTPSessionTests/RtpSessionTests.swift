import RTCBase
import RTP
import RTPSession
import XCTest

final class RtpSessionTests: XCTestCase {
    private let videoSsrc: UInt32 = 0x1111
    private let rtxSsrc: UInt32 = 0x2222

    private func pair(delay: Duration, loss: Double, rtx: Bool = false) -> SessionPair {
        var a = RtpSession(configuration: .init(cname: "a", seed: 1, feedbackSsrc: 0xA), now: .zero)
        var b = RtpSession(configuration: .init(cname: "b", seed: 2, feedbackSsrc: 0xB), now: .zero)
        a.addSendStream(
            .init(ssrc: videoSsrc, payloadType: 96, clockRate: 90_000, rtx: rtx ? .init(ssrc: rtxSsrc, payloadType: 97) : nil))
        b.addReceiveStream(.init(ssrc: videoSsrc, clockRate: 90_000, nack: true, rtxSsrc: rtx ? rtxSsrc : nil))
        return SessionPair(a: a, b: b, delay: delay, loss: loss)
    }

    /// 30 fps, 10 packets of 1000 bytes per frame.
    private func sendVideo(_ link: inout SessionPair) {
        let milliseconds = link.now.nanoseconds / 1_000_000
        guard milliseconds % 33 == 0 else { return }
        let frame = milliseconds / 33
        for index in 0..<10 {
            let payload = RtpPayload(bytes: Array(repeating: UInt8(index), count: 1000), marker: index == 9)
            link.a.send(payload, ssrc: videoSsrc, mediaTimestamp: UInt32(frame * 3000), now: link.now)
        }
    }

    func testFivePercentLossIsReportedAndNackLeavesUnderHalfAPercent() {
        var link = pair(delay: .milliseconds(20), loss: 0.05)
        link.run(until: Instant.zero + .seconds(30), each: sendVideo)
        link.lossActive = false
        link.run(until: Instant.zero + .seconds(31))  // let the last resends land
        let statistics = link.b.receiveStatistics(ssrc: videoSsrc, now: link.now)
        XCTAssertEqual(statistics?.packetsExpected, 9_090, "909 frames of 10 packets")
        XCTAssertEqual(statistics?.lossPercent ?? 0, 5, accuracy: 0.5, "network loss seen before NACK recovery")
        XCTAssertLessThan(statistics?.residualLossPercent ?? 100, 0.5)
        XCTAssertGreaterThan(statistics?.packetsRecovered ?? 0, 300)
        XCTAssertGreaterThan(link.a.sendCounters(ssrc: videoSsrc)?.retransmissions ?? 0, 400)
        XCTAssertEqual(link.b.roundTripTime?.milliseconds ?? 0, 40, accuracy: 3, "NACK response time: 2 x 20 ms")
    }

    func testVp8FramesSurviveFivePercentLossWhenTheAssemblerWaitsForResends() {
        var link = pair(delay: .milliseconds(20), loss: 0.05)
        var packetizer = Vp8Packetizer()
        let videoSsrc = self.videoSsrc
        link.run(until: Instant.zero + .seconds(10)) { link in
            let milliseconds = link.now.nanoseconds / 1_000_000
            guard milliseconds % 33 == 0 else { return }
            let index = milliseconds / 33
            var frame = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 5000)
            frame[0] = index == 1 ? 0x10 : 0x11  // VP8 payload header: P=0 on the first frame only
            for payload in packetizer.packetize(frame, isKeyframe: index == 1, maxPayloadSize: 1200) {
                link.a.send(payload, ssrc: videoSsrc, mediaTimestamp: UInt32(index * 3000), now: link.now)
            }
        }
        link.lossActive = false
        link.run(until: Instant.zero + .seconds(11))
        func assemble(maxWait: Duration) -> FrameAssembler<Vp8Depacketizer>.Statistics {
            var assembler = FrameAssembler(depacketizer: Vp8Depacketizer(), maxWait: maxWait)
            for (packet, at) in link.receivedByB {
                if let due = assembler.pollTimeout(), due <= at { assembler.handleTimeout(now: at) }
                assembler.insert(packet, now: at)
                while let frame = assembler.pollFrame() { XCTAssertEqual(frame.data.count, 5000) }
            }
            assembler.handleTimeout(now: link.now)
            return assembler.statistics
        }
        // 303 frames of 5 packets; about 75 packets lost, nearly all resent within 150 ms
        // (one whose resend is lost too comes back later than that: its frame is dropped).
        let waiting = assemble(maxWait: .milliseconds(150))
        XCTAssertGreaterThanOrEqual(waiting.framesCompleted, 301)
        XCTAssertLessThanOrEqual(waiting.framesDropped, 2)
        XCTAssertEqual(waiting.framesCompleted + waiting.framesDropped, 303)
        XCTAssertEqual(waiting.keyframesCompleted, 1)
        // Without waiting, a frame that lost a packet is overtaken by the next one.
        let impatient = assemble(maxWait: .zero)
        XCTAssertGreaterThan(impatient.framesDropped, 40)
        XCTAssertEqual(impatient.framesCompleted + impatient.framesDropped, 303)
    }

    func testRoundTripTimeFromReceiverReportEqualsLinkDelay() {
        var link = pair(delay: .milliseconds(25), loss: 0)
        link.run(until: Instant.zero + .seconds(20), each: sendVideo)
        let rtts = link.eventsA.compactMap { event -> Duration? in
            if case .roundTripTime(let rtt) = event { return rtt }
            return nil
        }
        XCTAssertFalse(rtts.isEmpty)
        for rtt in rtts {
            // 50 ms plus up to 1 ms of stepping; LSR/DLSR count in 1/65536 s.
            XCTAssertEqual(rtt.milliseconds, 50, accuracy: 1.1)
        }
        XCTAssertEqual(link.a.roundTripTime, rtts.last)
    }

    func testPlainResendRepeatsTheOriginalPacket() {
        var link = pair(delay: .milliseconds(5), loss: 0)
        var dropped: [UInt8]?
        for index in 0..<5 {
            link.a.send(RtpPayload(bytes: [UInt8(index)], marker: true), ssrc: videoSsrc, mediaTimestamp: UInt32(index * 3000), now: .zero)
        }
        link.collect()
        dropped = link.inFlight.remove(at: 2).packet == .rtp(link.sentFromA[2]) ? link.sentFromA[2] : nil
        link.run(until: Instant.zero + .milliseconds(40))
        XCTAssertEqual(link.sentFromA.count, 6)
        XCTAssertEqual(link.sentFromA.last, dropped, "same SSRC, sequence number, timestamp and payload")
        XCTAssertEqual(link.receivedByB.count, 5)
        XCTAssertEqual(link.b.receiveStatistics(ssrc: videoSsrc, now: link.now)?.packetsRecovered, 1)
    }

    func testRtxResendCarriesOriginalSequenceAndIsUnwrapped() throws {
        var link = pair(delay: .milliseconds(5), loss: 0, rtx: true)
        for index in 0..<5 {
            link.a.send(RtpPayload(bytes: [0xA0 + UInt8(index)], marker: true), ssrc: videoSsrc, mediaTimestamp: UInt32(index * 3000), now: .zero)
        }
        link.collect()
        let original = try RtpPacket(parsing: link.sentFromA[2])
        link.inFlight.remove(at: 2)
        link.run(until: Instant.zero + .milliseconds(40))
        let rtx = try RtpPacket(parsing: try XCTUnwrap(link.sentFromA.last))
        XCTAssertEqual(rtx.ssrc, rtxSsrc)
        XCTAssertEqual(rtx.payloadType, 97)
        XCTAssertEqual(rtx.timestamp, original.timestamp)
        XCTAssertEqual(Array(rtx.payload), [UInt8(original.sequenceNumber >> 8), UInt8(original.sequenceNumber & 0xff), 0xA2])
        let restored = try XCTUnwrap(link.receivedByB.last?.packet)
        XCTAssertEqual(restored.ssrc, videoSsrc)
        XCTAssertEqual(restored.sequenceNumber, original.sequenceNumber)
        XCTAssertEqual(restored.payloadType, 96)
        XCTAssertEqual(Array(restored.payload), [0xA2])
        XCTAssertEqual(link.b.receiveStatistics(ssrc: videoSsrc, now: link.now)?.packetsLost, 0)
    }

    func testInitialSequenceNumbersComeFromTheSeed() {
        func first(seed: UInt64) -> UInt16? {
            var session = RtpSession(configuration: .init(cname: "x", seed: seed, feedbackSsrc: 1), now: .zero)
            session.addSendStream(.init(ssrc: 5, payloadType: 96, clockRate: 90_000))
            return session.nextSequenceNumber(ssrc: 5)
        }
        XCTAssertEqual(first(seed: 3), first(seed: 3))
        XCTAssertNotEqual(first(seed: 3), first(seed: 4))
    }

    func testPliAndNewFirRequestKeyframesOnce() {
        var link = pair(delay: .milliseconds(5), loss: 0)
        XCTAssertTrue(link.b.requestKeyframe(ssrc: videoSsrc, now: .zero))
        XCTAssertFalse(link.b.requestKeyframe(ssrc: videoSsrc, now: Instant.zero + .milliseconds(249)), "within 250 ms")
        XCTAssertTrue(link.b.requestKeyframe(ssrc: videoSsrc, fullIntraRequest: true, now: Instant.zero + .milliseconds(250)))
        link.collect()
        // The same FIR command sequence number again is a repeat, not a new request.
        var writer = ByteWriter()
        FullIntraRequest(senderSsrc: 0xB, entries: [.init(ssrc: videoSsrc, sequenceNumber: 1)]).write(to: &writer)
        link.inFlight.append((Instant.zero + .milliseconds(5), false, .rtcp(writer.bytes)))
        link.run(until: Instant.zero + .milliseconds(10))
        XCTAssertEqual(link.eventsA, [.keyframeRequested(ssrc: videoSsrc), .keyframeRequested(ssrc: videoSsrc)])
        XCTAssertEqual(link.a.sendCounters(ssrc: videoSsrc)?.keyframeRequestsReceived, 2)
        let statistics = link.b.receiveStatistics(ssrc: videoSsrc, now: link.now)
        XCTAssertEqual(statistics?.plisSent, 1)
        XCTAssertEqual(statistics?.firsSent, 1)
    }

    /// Report times of a lone sender over 300 s.
    private func reportTimes(minimumInterval: Duration?) -> (times: [Instant], last: [UInt8]) {
        var configuration = RtpSession.Configuration(cname: "alone", seed: 9, feedbackSsrc: 1)
        if let minimumInterval { configuration.rtcpMinimumInterval = minimumInterval }
        var session = RtpSession(configuration: configuration, now: .zero)
        session.addSendStream(.init(ssrc: 5, payloadType: 111, clockRate: 48_000))
        session.send(RtpPayload(bytes: [1, 2, 3], marker: false), ssrc: 5, mediaTimestamp: 0, now: .zero)
        session.send(RtpPayload(bytes: [4, 5], marker: false), ssrc: 5, mediaTimestamp: 960, now: .zero)
        while session.pollTransmit() != nil {}
        var reportTimes: [Instant] = []
        var lastReport: [UInt8] = []
        while let next = session.pollTimeout(), next < Instant.zero + .seconds(300) {
            session.handleTimeout(now: next)
            while let packet = session.pollTransmit() {
                if case .rtcp(let bytes) = packet {
                    reportTimes.append(next)
                    lastReport = bytes
                }
            }
        }
        return (reportTimes, lastReport)
    }

    func testReportsComeAboutEverySecondAsBrowsersExpect() {
        let times = reportTimes(minimumInterval: nil).times
        let gaps = zip(times.dropFirst(), times).map { $0.milliseconds(since: $1) }
        XCTAssertLessThanOrEqual(gaps.max() ?? .infinity, 1500 / 1.21828, "never 3 s without a report (Chromium's timeout)")
        XCTAssertEqual(gaps.reduce(0, +) / Double(gaps.count), 1000 / 1.21828, accuracy: 80)
    }

    func testReportsFollowRfc3550IntervalsAndCarryCounts() throws {
        let (reportTimes, lastReport) = reportTimes(minimumInterval: .seconds(5))
        // Td = Tmin = 5 s (2.5 s first), times [0.5, 1.5], over e - 3/2.
        XCTAssertLessThanOrEqual(reportTimes[0].milliseconds(since: .zero), 2500 * 1.5 / 1.21828)
        let gaps = zip(reportTimes.dropFirst(), reportTimes).map { $0.milliseconds(since: $1) }
        XCTAssertTrue(gaps.allSatisfy { (5000 * 0.5 / 1.21828...5000 * 1.5 / 1.21828).contains($0) }, "\(gaps)")
        let mean = gaps.reduce(0, +) / Double(gaps.count)
        XCTAssertEqual(mean, 5000 / 1.21828, accuracy: 400)
        let packets = try RtcpCompoundReader.parse(lastReport, requiresReportFirst: true)
        guard case .senderReport(let report) = packets.first else { return XCTFail("no SR first") }
        XCTAssertEqual(report.packetCount, 2)
        XCTAssertEqual(report.octetCount, 5)
        XCTAssertEqual(packets.last, .sourceDescription(.init(chunks: [.init(ssrc: 5, cname: "alone")])))
    }

    func testMalformedRtcpIsCountedAndDropped() {
        var session = RtpSession(configuration: .init(cname: "x", seed: 1, feedbackSsrc: 1), now: .zero)
        session.handleRtcp([0x81, 0xCD, 0x00, 0x09, 0, 0], now: .zero)
        session.handleRtcp([], now: .zero)
        XCTAssertEqual(session.counters.malformedRtcp, 2)
    }
}
