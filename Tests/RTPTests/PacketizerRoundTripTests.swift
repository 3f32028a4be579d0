import RTCBase
import RTP
import XCTest

final class PacketizerRoundTripTests: XCTestCase {
    private let sizes = [1, 2, 3, 100, 1195, 1196, 1197, 1200, 1201, 2393, 2400, 10_000, 65_537, 123_457, 200_000]
    private let mtu = 1200

    /// Packetizes each frame, checks sizes and markers, reassembles and compares.
    private func roundTrip<P: RtpPacketizer, D: RtpDepacketizer>(
        _ packetizer: inout P, _ depacketizer: D, frames: [(data: [UInt8], keyframe: Bool)],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        var assembler = FrameAssembler(depacketizer: depacketizer)
        var sender = PacketLine(firstSequence: 65_000)  // wraps within the larger frames
        for (index, frame) in frames.enumerated() {
            let payloads = packetizer.packetize(frame.data, isKeyframe: frame.keyframe, maxPayloadSize: mtu)
            XCTAssertTrue(payloads.allSatisfy { $0.bytes.count <= mtu }, "payload over MTU", file: file, line: line)
            XCTAssertEqual(payloads.map(\.marker).filter { $0 }.count, 1, file: file, line: line)
            XCTAssertTrue(payloads.last?.marker ?? false, file: file, line: line)
            for packet in sender.packets(payloads, timestamp: UInt32(index) * 3000) {
                assembler.insert(packet, now: .zero)
            }
            let assembled = assembler.pollFrame()
            XCTAssertEqual(assembled?.data, frame.data, "frame \(index) of \(frame.data.count) bytes", file: file, line: line)
            XCTAssertEqual(assembled?.isKeyframe, frame.keyframe, file: file, line: line)
            XCTAssertEqual(assembled?.packetCount, payloads.count, file: file, line: line)
        }
        XCTAssertEqual(assembler.statistics.framesCompleted, frames.count, file: file, line: line)
        XCTAssertEqual(assembler.statistics.framesDropped, 0, file: file, line: line)
    }

    func testVp8FramesFromOneByteTo200KBSurviveMtu1200() {
        let frames = sizes.enumerated().map { index, size in
            var data = nonZeroBytes(size, seed: UInt64(size))
            data[0] = index % 3 == 0 ? 0x10 : 0x11  // payload header P bit: 0 = keyframe
            return (data: data, keyframe: index % 3 == 0)
        }
        var packetizer = Vp8Packetizer(initialPictureId: 0x7ff0)
        roundTrip(&packetizer, Vp8Depacketizer(), frames: frames)
        XCTAssertEqual(packetizer.pictureId, (0x7ff0 + UInt16(sizes.count)) & 0x7fff, "15-bit picture ID wraps")
    }

    func testVp9FramesFromOneByteTo200KBSurviveMtu1200() {
        let frames = sizes.enumerated().map { index, size in
            (data: nonZeroBytes(size, seed: UInt64(size)), keyframe: index % 4 == 0)
        }
        var packetizer = Vp9Packetizer(width: 1280, height: 720)
        roundTrip(&packetizer, Vp9Depacketizer(), frames: frames)
    }

    func testH264AccessUnitsFromOneByteTo200KBSurviveMtu1200() {
        let frames = sizes.enumerated().map { index, size in
            (data: h264AccessUnit(sliceSize: size, keyframe: index % 4 == 0, seed: UInt64(size)), keyframe: index % 4 == 0)
        }
        var packetizer = H264Packetizer()
        roundTrip(&packetizer, H264Depacketizer(), frames: frames)
    }

    func testAv1TemporalUnitsFromOneByteTo200KBSurviveMtu1200() {
        let frames = sizes.enumerated().map { index, size in
            (data: av1TemporalUnit(frameSize: size, keyframe: index % 4 == 0, seed: UInt64(size)), keyframe: index % 4 == 0)
        }
        var packetizer = Av1Packetizer()
        roundTrip(&packetizer, Av1Depacketizer(), frames: frames)
    }

    func testH265AccessUnitsFromTwoBytesTo200KBSurviveMtu1200() {
        let frames = sizes.enumerated().map { index, size in
            (data: h265AccessUnit(sliceSize: max(2, size), keyframe: index % 4 == 0, seed: UInt64(size)), keyframe: index % 4 == 0)
        }
        var packetizer = H265Packetizer()
        roundTrip(&packetizer, H265Depacketizer(), frames: frames)
    }

    func testOpusPacketsFromOneByteTo1275SurviveWhole() {
        let frames = [1, 2, 60, 160, 1000, 1200].map { (data: nonZeroBytes($0, seed: UInt64($0)), keyframe: true) }
        var packetizer = OpusPacketizer()
        var assembler = FrameAssembler(depacketizer: OpusDepacketizer())
        var sender = PacketLine(firstSequence: 65_533)
        for (index, frame) in frames.enumerated() {
            let payloads = packetizer.packetize(frame.data, isKeyframe: true, maxPayloadSize: mtu)
            XCTAssertEqual(payloads, [RtpPayload(bytes: frame.data, marker: false)])
            for packet in sender.packets(payloads, timestamp: UInt32(index) * 960) { assembler.insert(packet, now: .zero) }
            XCTAssertEqual(assembler.pollFrame()?.data, frame.data)
        }
        XCTAssertEqual(assembler.statistics.framesCompleted, frames.count)
    }

    func testH264SmallNalUnitsShareOneStapA() {
        var packetizer = H264Packetizer()
        let frame = AnnexB.startCode + [0x67, 0x42, 0xE0] + [0, 0, 1] + [0x68, 0xCE] + AnnexB.startCode + [0x65, 0x88, 0x80]
        let payloads = packetizer.packetize(frame, isKeyframe: true, maxPayloadSize: 1200)
        XCTAssertEqual(
            payloads,
            [
                RtpPayload(
                    bytes: [
                        0x78,  // F=0 NRI=3 type 24 (STAP-A)
                        0x00, 0x03, 0x67, 0x42, 0xE0,  // size 3: SPS
                        0x00, 0x02, 0x68, 0xCE,  // size 2: PPS (after a 3-byte start code)
                        0x00, 0x03, 0x65, 0x88, 0x80,  // size 3: IDR slice
                    ], marker: true)
            ])
    }

    func testH264LargeNalUnitGoesAsFuAFragments() {
        var packetizer = H264Packetizer()
        let frame = AnnexB.startCode + [0x65] + nonZeroBytes(10, seed: 3)
        let payloads = packetizer.packetize(frame, isKeyframe: true, maxPayloadSize: 6)
        // 10 data bytes in chunks of 4: FU indicator NRI=3 type 28 (0x7C); FU header S/E + type 5.
        XCTAssertEqual(payloads.map { Array($0.bytes.prefix(2)) }, [[0x7C, 0x85], [0x7C, 0x05], [0x7C, 0x45]])
        XCTAssertEqual(payloads.map(\.bytes.count), [6, 6, 4])
    }
}
