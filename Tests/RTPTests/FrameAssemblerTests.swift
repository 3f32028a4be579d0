import RTCBase
import RTP
import WebRTCTestKit
import XCTest

final class FrameAssemblerTests: XCTestCase {
    private func vp8Frames(count: Int, size: Int, firstSequence: UInt16) -> [[RtpPacket]] {
        var packetizer = Vp8Packetizer()
        var line = PacketLine(firstSequence: firstSequence)
        return (0..<count).map { index in
            var data = nonZeroBytes(size, seed: UInt64(index))
            data[0] = index == 0 ? 0x10 : 0x11
            let payloads = packetizer.packetize(data, isKeyframe: index == 0, maxPayloadSize: 1200)
            return line.packets(payloads, timestamp: UInt32(index) * 3000)
        }
    }

    func testReorderedAndDuplicatedPacketsAcrossWrapMakeOneFrame() {
        let frame = vp8Frames(count: 1, size: 6000, firstSequence: 65_533)[0]
        XCTAssertEqual(frame.count, 6)
        var assembler = FrameAssembler(depacketizer: Vp8Depacketizer())
        for index in [5, 2, 2, 0, 4, 1, 0, 3] { assembler.insert(frame[index], now: .zero) }
        let assembled = assembler.pollFrame()
        XCTAssertEqual(assembled?.data.count, 6000)
        // Extended relative to the first packet seen (65538 -> 2): 65533 unwraps to -3.
        XCTAssertEqual(assembled?.firstSequence, -3)
        XCTAssertEqual(assembled?.lastSequence, 2)
        XCTAssertEqual(assembled?.isKeyframe, true)
        XCTAssertNil(assembler.pollFrame())
        XCTAssertEqual(assembler.statistics.duplicatePackets, 2)
        assembler.insert(frame[1], now: .zero)
        XCTAssertEqual(assembler.statistics.latePackets, 1, "a packet of a completed frame is late")
    }

    /// Without delta frame bytes the same frames come out, in the same order with the same
    /// sequence ranges, keyframe flags and arrivals; only the keyframe carries its bytes.
    func testWithoutDeltaFrameBytesOnlyKeyframesCarryTheirBytes() {
        let frames = vp8Frames(count: 4, size: 2500, firstSequence: 100)
        var whole = FrameAssembler(depacketizer: Vp8Depacketizer())
        var lean = FrameAssembler(depacketizer: Vp8Depacketizer())
        lean.deltaFrameBytes = false
        for (index, packet) in frames.joined().enumerated() {
            whole.insert(packet, now: Instant(nanoseconds: Int64(index) * 1_000_000))
            lean.insert(packet, now: Instant(nanoseconds: Int64(index) * 1_000_000))
        }
        let full = Array(sequence(state: whole) { $0.pollFrame() })
        let keyframeOnly = Array(sequence(state: lean) { $0.pollFrame() })
        XCTAssertEqual(full.count, 4)
        XCTAssertEqual(keyframeOnly.map(\.data.count), [2500, 0, 0, 0])
        XCTAssertEqual(keyframeOnly.map(\.isKeyframe), [true, false, false, false])
        var withoutBytes = full
        for index in withoutBytes.indices.dropFirst() { withoutBytes[index].data = [] }
        XCTAssertEqual(keyframeOnly, withoutBytes)
        XCTAssertEqual(lean.statistics, whole.statistics)
    }

    /// The ring starts at 128 slots and grows only when a frame needs more: a 299-packet
    /// keyframe, its packets reversed across the sequence wrap, comes out whole and makes
    /// it 512; thirty 3-packet frames keep it at 128; past `capacity` an older packet whose
    /// slot a newer one holds is late, as before.
    func testTheRingGrowsForALargeKeyframeAndStaysSmallOtherwise() {
        let keyframe = vp8Frames(count: 1, size: 300 * 1190, firstSequence: 65_400)[0]
        XCTAssertEqual(keyframe.count, 299)
        var assembler = FrameAssembler(depacketizer: Vp8Depacketizer())
        for packet in keyframe.reversed() { assembler.insert(packet, now: .zero) }
        XCTAssertEqual(assembler.pollFrame()?.data.count, 300 * 1190)
        XCTAssertEqual(assembler.slotCount, 512)
        XCTAssertEqual(assembler.statistics.evictedPackets, 0)

        var small = FrameAssembler(depacketizer: Vp8Depacketizer())
        for frame in vp8Frames(count: 30, size: 3000, firstSequence: 65_500) { for packet in frame { small.insert(packet, now: .zero) } }
        XCTAssertEqual(small.statistics.framesCompleted, 30)
        XCTAssertEqual(small.slotCount, 128)

        var bounded = FrameAssembler(depacketizer: Vp8Depacketizer(), capacity: 256)
        for packet in keyframe.reversed() { bounded.insert(packet, now: .zero) }
        XCTAssertEqual(bounded.slotCount, 256)
        XCTAssertNil(bounded.pollFrame(), "the frame is longer than the ring")
        XCTAssertEqual(bounded.statistics.latePackets, 299 - 256, "older packets whose slot a newer one holds are late")
    }

    func testIncompleteFrameIsDroppedWhenALaterFrameCompletes() {
        let frames = vp8Frames(count: 3, size: 3000, firstSequence: 100)  // 3 packets each
        var assembler = FrameAssembler(depacketizer: Vp8Depacketizer())
        for packet in frames[0] { assembler.insert(packet, now: .zero) }
        assembler.insert(frames[1][0], now: .zero)
        assembler.insert(frames[1][2], now: .zero)  // middle packet of frame 1 lost
        for packet in frames[2] { assembler.insert(packet, now: .zero) }
        XCTAssertEqual(assembler.pollFrame()?.timestamp, 0)
        XCTAssertEqual(assembler.pollFrame()?.timestamp, 6000)
        XCTAssertNil(assembler.pollFrame())
        XCTAssertEqual(assembler.statistics.framesCompleted, 2)
        XCTAssertEqual(assembler.statistics.framesDropped, 1)
        assembler.insert(frames[1][1], now: .zero)  // the resend comes too late
        XCTAssertNil(assembler.pollFrame())
        XCTAssertEqual(assembler.statistics.latePackets, 1)
    }

    func testLaterFrameWaitsForAResendThenBothComeOutInOrder() {
        let frames = vp8Frames(count: 2, size: 3000, firstSequence: 65_534)
        var assembler = FrameAssembler(depacketizer: Vp8Depacketizer(), maxWait: .milliseconds(100))
        for packet in frames[0] where packet.sequenceNumber != 65_535 { assembler.insert(packet, now: .zero) }
        for packet in frames[1] { assembler.insert(packet, now: Instant(nanoseconds: 33_000_000)) }
        XCTAssertNil(assembler.pollFrame()?.timestamp, "frame 1 waits for frame 0")
        XCTAssertEqual(assembler.pollTimeout(), Instant(nanoseconds: 133_000_000))
        assembler.insert(frames[0][1], now: Instant(nanoseconds: 60_000_000))  // the resend
        XCTAssertEqual(assembler.pollFrame()?.timestamp, 0)
        XCTAssertEqual(assembler.pollFrame()?.timestamp, 3000)
        XCTAssertNil(assembler.pollTimeout())
        XCTAssertEqual(assembler.statistics.framesDropped, 0)
        XCTAssertEqual(assembler.statistics.framesCompleted, 2)
    }

    /// A frame waits as long as `maxWait` said when it completed: the receiver learning its
    /// round trip meanwhile (500 ms cut to 210) does not give up a frame whose packet was
    /// NACKed at the slower pace of before (seen: dropped at 210 ms, its resend 2.5 ms later).
    func testAShorterWaitSetLaterDoesNotCutAFrameAlreadyWaiting() {
        let frames = vp8Frames(count: 3, size: 3000, firstSequence: 100)
        var assembler = FrameAssembler(depacketizer: Vp8Depacketizer(), maxWait: .milliseconds(500))
        for packet in frames[0] where packet.sequenceNumber != 101 { assembler.insert(packet, now: .zero) }
        for packet in frames[1] { assembler.insert(packet, now: Instant(nanoseconds: 33_000_000)) }
        assembler.maxWait = .milliseconds(210)
        for packet in frames[2] { assembler.insert(packet, now: Instant(nanoseconds: 250_000_000)) }
        XCTAssertNil(assembler.pollFrame(), "frame 1 still waits: until 533 ms")
        XCTAssertEqual(assembler.pollTimeout(), Instant(nanoseconds: 533_000_000))
        assembler.insert(frames[0][1], now: Instant(nanoseconds: 253_000_000))
        XCTAssertEqual((0..<3).compactMap { _ in assembler.pollFrame()?.timestamp }, [0, 3000, 6000])
        XCTAssertEqual([assembler.statistics.framesDropped, assembler.statistics.framesDroppedLate], [0, 0])
    }

    /// A stream in which no frame completes any more (a trickle of packets through a link
    /// far below its bitrate): nothing later gives the incomplete frames up, so they are
    /// counted as stalled once their newest packet is older than the wait, and not before.
    func testIncompleteFramesNothingGivesUpAreStalledAfterTheWait() {
        let frames = vp8Frames(count: 4, size: 3000, firstSequence: 500)  // 3 packets each
        var assembler = FrameAssembler(depacketizer: Vp8Depacketizer(), maxWait: .milliseconds(100))
        for (index, frame) in frames.enumerated() {
            // Frame 3's packets arrive at 100 ms; frames 0-2 at 0, 33 and 66 ms; each lacks its middle packet.
            assembler.insert(frame[0], now: Instant(nanoseconds: Int64(index) * 33_000_000))
            assembler.insert(frame[2], now: Instant(nanoseconds: Int64(index) * 33_000_000 + 1_000_000))
        }
        XCTAssertNil(assembler.pollFrame())
        XCTAssertEqual(assembler.statistics.framesDropped, 0, "no later frame completed to drop them")
        XCTAssertEqual(assembler.framesStalled(now: Instant(nanoseconds: 100_000_000)), 0, "all within the wait")
        XCTAssertEqual(assembler.framesStalled(now: Instant(nanoseconds: 135_000_000)), 2, "frames 0 and 1 waited over 100 ms")
        XCTAssertEqual(assembler.framesStalled(now: Instant(nanoseconds: 1_000_000_000)), 4)
    }

    /// At the stream's end the frame waiting for an older incomplete one comes out at once,
    /// the older one dropped, before its wait is over.
    func testReleaseHeldDeliversTheWaitingFrameAtTheEnd() {
        let frames = vp8Frames(count: 3, size: 3000, firstSequence: 10)
        var assembler = FrameAssembler(depacketizer: Vp8Depacketizer(), maxWait: .milliseconds(20))
        for packet in frames[0] { assembler.insert(packet, now: .zero) }
        for packet in frames[1] where packet.sequenceNumber != 14 { assembler.insert(packet, now: Instant(nanoseconds: 20_000_000)) }
        for packet in frames[2] { assembler.insert(packet, now: Instant(nanoseconds: 40_000_000)) }
        XCTAssertEqual(assembler.pollFrame()?.timestamp, 0)
        XCTAssertNil(assembler.pollFrame(), "frame 2 waits 20 ms for frame 1")
        assembler.releaseHeld()
        XCTAssertEqual(assembler.pollFrame()?.timestamp, 6000)
        XCTAssertNil(assembler.pollFrame())
        XCTAssertEqual([assembler.statistics.framesCompleted, assembler.statistics.framesDropped], [2, 1])
        assembler.releaseHeld()
        XCTAssertNil(assembler.pollFrame(), "nothing held twice")
    }

    func testLaterFrameGivesUpOnOlderAfterMaxWait() {
        let frames = vp8Frames(count: 2, size: 3000, firstSequence: 10)
        var assembler = FrameAssembler(depacketizer: Vp8Depacketizer(), maxWait: .milliseconds(100))
        for packet in frames[0] where packet.sequenceNumber != 11 { assembler.insert(packet, now: .zero) }
        for packet in frames[1] { assembler.insert(packet, now: Instant(nanoseconds: 33_000_000)) }
        assembler.handleTimeout(now: Instant(nanoseconds: 132_999_999))
        XCTAssertNil(assembler.pollFrame()?.timestamp)
        assembler.handleTimeout(now: Instant(nanoseconds: 133_000_000))
        XCTAssertEqual(assembler.pollFrame()?.timestamp, 3000)
        XCTAssertEqual(assembler.statistics.framesDropped, 1)
        assembler.insert(frames[0][1], now: Instant(nanoseconds: 140_000_000))
        XCTAssertEqual(assembler.statistics.latePackets, 1)
    }

    /// Issue 19 item 4. Frames of 3 packets every 33 ms; a round trip of 30 ms, so the
    /// receiver NACKs a missing packet 10 ms after the gap and then every 37.5 ms, and a
    /// frame waits the whole resend window: 10 + 10 x 37.5 = 385 ms
    /// (`NackConfiguration.resendWindow`). Resends answering the second and the third
    /// NACK complete their frames; one after the window is a frame dropped late; one that
    /// never comes leaves its frame incomplete.
    func testFramesWaitWhileTheirPacketsAreNackedAndLateOrNeverArePartedAfter() {
        let frames = vp8Frames(count: 11, size: 3000, firstSequence: 65_530)
        var assembler = FrameAssembler(depacketizer: Vp8Depacketizer(), maxWait: .microseconds(385_000))
        func at(_ milliseconds: Double) -> Instant { Instant(nanoseconds: Int64(milliseconds * 1_000_000)) }
        var delivered: [UInt32] = []
        func advance(to milliseconds: Double) {
            assembler.handleTimeout(now: at(milliseconds))
            while let frame = assembler.pollFrame() { delivered.append(frame.timestamp / 3000) }
        }
        let lost: Set<Int> = [1, 4, 6, 9]  // each loses its middle packet
        for index in 0..<11 {
            for (part, packet) in frames[index].enumerated() where !(lost.contains(index) && part == 1) {
                assembler.insert(packet, now: at(Double(index) * 33))
            }
            while let frame = assembler.pollFrame() { delivered.append(frame.timestamp / 3000) }
            // Each resend: the gap opened at the frame's arrival, then 10 ms, the NACKs
            // before the one answered 37.5 ms apart, and the 30 ms round trip.
            switch index {
            case 3: assembler.insert(frames[1][1], now: at(33 + 10 + 37.5 + 30))  // second NACK's answer, 110.5 ms
            case 6: assembler.insert(frames[4][1], now: at(132 + 10 + 75 + 30))  // third NACK's answer, 247 ms
            default: break
            }
            while let frame = assembler.pollFrame() { delivered.append(frame.timestamp / 3000) }
        }
        XCTAssertEqual(delivered, [0, 1, 2, 3, 4, 5], "frame 6's missing packet holds frames 7 to 10")
        // Frame 7 completed at 231 ms: it gives frame 6 up at 616 ms.
        XCTAssertEqual(assembler.pollTimeout(), at(616))
        advance(to: 615.9)
        XCTAssertEqual(delivered.count, 6)
        advance(to: 616)
        XCTAssertEqual(delivered, [0, 1, 2, 3, 4, 5, 7, 8], "frame 9 now holds frame 10 (completed at 330 ms)")
        XCTAssertEqual(assembler.statistics.framesDropped, 1)
        XCTAssertEqual(assembler.statistics.framesDroppedLate, 0)
        assembler.insert(frames[6][1], now: at(700))  // too late: frame 6 was given up
        XCTAssertEqual(assembler.statistics.framesDroppedLate, 1)
        XCTAssertEqual(assembler.pollTimeout(), at(715))
        advance(to: 715)
        XCTAssertEqual(delivered, [0, 1, 2, 3, 4, 5, 7, 8, 10])
        XCTAssertNil(assembler.pollTimeout())
        XCTAssertEqual(assembler.statistics.framesCompleted, 9)
        XCTAssertEqual(assembler.statistics.framesDropped, 2)
        XCTAssertEqual(assembler.statistics.framesDroppedLate, 1, "frame 6")
        XCTAssertEqual(assembler.statistics.framesIncomplete, 1, "frame 9: its packet never came")
        XCTAssertEqual(assembler.statistics.latePackets, 1)
    }

    func testLostFirstPacketIsRecoveredByResendBeforeNextFrame() {
        let frames = vp8Frames(count: 2, size: 3000, firstSequence: 7)
        var assembler = FrameAssembler(depacketizer: Vp8Depacketizer())
        assembler.insert(frames[0][1], now: Instant(nanoseconds: 10))
        assembler.insert(frames[0][2], now: Instant(nanoseconds: 20))
        XCTAssertNil(assembler.pollFrame())
        assembler.insert(frames[0][0], now: Instant(nanoseconds: 90))  // resend arrives
        let frame = assembler.pollFrame()
        XCTAssertEqual(frame?.data.count, 3000)
        XCTAssertEqual(frame?.firstArrival, Instant(nanoseconds: 10))
        XCTAssertEqual(frame?.lastArrival, Instant(nanoseconds: 90))
    }

    func testH264FrameStartFollowsPreviousFrameWithoutStartFlag() {
        var packetizer = H264Packetizer()
        var line = PacketLine(firstSequence: 500)
        let keyframe = line.packets(
            packetizer.packetize(h264AccessUnit(sliceSize: 3000, keyframe: true, seed: 1), isKeyframe: true, maxPayloadSize: 1200),
            timestamp: 0)
        let delta = line.packets(
            packetizer.packetize(h264AccessUnit(sliceSize: 2500, keyframe: false, seed: 2), isKeyframe: false, maxPayloadSize: 1200),
            timestamp: 3000)
        var assembler = FrameAssembler(depacketizer: H264Depacketizer())
        // The delta frame arrives first: its start cannot be known until the keyframe ends.
        for packet in delta.reversed() { assembler.insert(packet, now: .zero) }
        XCTAssertNil(assembler.pollFrame())
        for packet in keyframe { assembler.insert(packet, now: .zero) }
        XCTAssertEqual(assembler.pollFrame()?.isKeyframe, true, "SPS first: a known start")
        XCTAssertEqual(assembler.pollFrame()?.isKeyframe, false, "then the waiting delta frame")
        XCTAssertEqual(assembler.statistics.framesCompleted, 2)
    }

    func testFuzzedDepacketizersNeverTrap() {
        var vp8 = Vp8Packetizer()
        var vp9 = Vp9Packetizer(width: 320, height: 240)
        var h264 = H264Packetizer()
        let seeds: [[UInt8]] = vp8.packetize([0x10, 1, 2], isKeyframe: true, maxPayloadSize: 1200).map(\.bytes)
            + vp9.packetize([1, 2, 3], isKeyframe: true, maxPayloadSize: 1200).map(\.bytes)
            + h264.packetize(h264AccessUnit(sliceSize: 40, keyframe: true, seed: 1), isKeyframe: true, maxPayloadSize: 1200).map(\.bytes)
            + h264.packetize(h264AccessUnit(sliceSize: 40, keyframe: true, seed: 1), isKeyframe: true, maxPayloadSize: 20).map(\.bytes)
        let depacketizers: [any RtpDepacketizer] = [
            Vp8Depacketizer(), Vp9Depacketizer(), H264Depacketizer(), OpusDepacketizer(),
        ]
        for (index, depacketizer) in depacketizers.enumerated() {
            var fuzzer = Fuzzer(seeds: seeds, seed: UInt64(index), maxLength: 64)
            var accepted = 0
            var appendFailures = 0
            var frame: [UInt8] = []
            fuzzer.run(iterations: 100_000) { input in
                let reader = ByteReader(input)
                guard (try? depacketizer.inspect(reader)) != nil else { return }
                accepted += 1
                frame.removeAll(keepingCapacity: true)
                if (try? depacketizer.append(reader, to: &frame)) == nil { appendFailures += 1 }
            }
            XCTAssertGreaterThan(accepted, 1_000, "\(type(of: depacketizer))")
            XCTAssertEqual(appendFailures, 0, "what inspect accepts, append takes")
        }
    }

    func testFuzzedPacketStreamIntoAssemblerNeverTraps() {
        var assembler = FrameAssembler(depacketizer: H264Depacketizer(), capacity: 64)
        var generator = SeededGenerator(seed: 9)
        var writer = ByteWriter()
        for _ in 0..<100_000 {
            writer.reset()
            let payload = [UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator), 1]
            RtpHeader(
                marker: Bool.random(using: &generator), payloadType: 96,
                sequenceNumber: UInt16.random(in: 0...70, using: &generator) &* 937,
                timestamp: UInt32.random(in: 0...3, using: &generator), ssrc: 1
            ).write(payload: payload, to: &writer)
            guard let packet = try? RtpPacket(parsing: writer.bytes) else { continue }
            assembler.insert(packet, now: .zero)
            while assembler.pollFrame() != nil {}
        }
        XCTAssertGreaterThan(assembler.statistics.framesCompleted, 100)
    }
}
