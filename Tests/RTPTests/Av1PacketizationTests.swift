import RTCBase
import RTP
import XCTest

/// The AV1 RTP payload format (AOMedia v1.0) byte for byte: the aggregation header
/// (4.4), OBU elements with LEB128 lengths and W (4.3), fragments across packets (Z, Y),
/// N on a new coded video sequence, what is left out (section 5), and what the
/// depacketizer refuses.
final class Av1PacketizationTests: XCTestCase {
    /// Temporal delimiter, sequence header (payload AA BB CC), frame (10 20), as libaom
    /// writes them: every OBU with obu_has_size_field and obu_size.
    private let keyUnit: [UInt8] = [0x12, 0x00, 0x0A, 0x03, 0xAA, 0xBB, 0xCC, 0x32, 0x02, 0x10, 0x20]

    func testSequenceHeaderAndFrameShareOnePacketWithoutTheTemporalDelimiter() {
        var packetizer = Av1Packetizer()
        XCTAssertEqual(
            packetizer.packetize(keyUnit, isKeyframe: true, maxPayloadSize: 1200),
            [RtpPayload(bytes: [
                0x28,  // Z=0 Y=0 W=2 N=1
                0x04, 0x08, 0xAA, 0xBB, 0xCC,  // length 4: sequence header, obu_has_size_field cleared
                0x30, 0x10, 0x20,  // the last element goes without a length
            ], marker: true)])
    }

    func testDeltaFrameHasNoNAndFourElementsUseWZero() {
        var packetizer = Av1Packetizer()
        let metadata: [UInt8] = [0x2A, 0x01, 0x05]  // OBU_METADATA, obu_size 1
        let unit = [0x12, 0x00] + metadata + metadata + metadata + [0x32, 0x01, 0x30]
        XCTAssertEqual(packetizer.packetize(unit, isKeyframe: false, maxPayloadSize: 1200).map(\.bytes),
                       [[0x00, 0x02, 0x28, 0x05, 0x02, 0x28, 0x05, 0x02, 0x28, 0x05, 0x02, 0x30, 0x30]])
    }

    func testLargeFrameObuIsFragmentedWithYAndZ() throws {
        var packetizer = Av1Packetizer()
        let payload = nonZeroBytes(20, seed: 7)
        let unit: [UInt8] = [0x32, 0x14] + payload
        let packets = packetizer.packetize(unit, isKeyframe: false, maxPayloadSize: 10)
        // 21 element bytes (header 0x30 + 20) in pieces of 9, each the packet's only element
        // (W=1: no length) after the aggregation header.
        XCTAssertEqual(packets.map { $0.bytes.first }, [0x50, 0xD0, 0x90])  // Y+W=1, Z+Y+W=1, Z+W=1
        XCTAssertEqual(packets.map(\.bytes.count), [10, 10, 4])
        XCTAssertEqual(packets.map(\.marker), [false, false, true])
        XCTAssertEqual(packets[0].bytes[1], 0x30)
        var frame: [UInt8] = []
        for packet in packets { try Av1Depacketizer().append(ByteReader(packet.bytes), to: &frame) }
        XCTAssertEqual(frame, unit, "fragments joined, obu_size written back minimally")
    }

    func testOpenFragmentCarriesAFiveByteSizeUntilItsLastPiece() throws {
        var frame: [UInt8] = []
        try Av1Depacketizer().append(ByteReader([0x50, 0x30, 0x10, 0x11]), to: &frame)  // Y: frame OBU begins
        XCTAssertEqual(frame, [0x32, 0x82, 0x80, 0x80, 0x80, 0x00, 0x10, 0x11], "obu_size 2 padded to 5 bytes")
        try Av1Depacketizer().append(ByteReader([0xD0, 0x12]), to: &frame)  // Z and Y: a middle piece
        XCTAssertEqual(frame.prefix(6), [0x32, 0x83, 0x80, 0x80, 0x80, 0x00])
        try Av1Depacketizer().append(ByteReader([0x90, 0x13]), to: &frame)  // Z: the last piece
        XCTAssertEqual(frame, [0x32, 0x04, 0x10, 0x11, 0x12, 0x13])
    }

    func testElementsWithObuSizeFromOtherSendersAreKept() throws {
        var frame: [UInt8] = []
        // W=0: one element with a length (4), itself an OBU with obu_size 2 (0x32 0x02 10 20).
        try Av1Depacketizer().append(ByteReader([0x00, 0x04, 0x32, 0x02, 0x10, 0x20]), to: &frame)
        XCTAssertEqual(frame, [0x32, 0x02, 0x10, 0x20])
    }

    func testTemporalDelimitersAndTileListsAreIgnored() throws {
        var frame: [UInt8] = []
        try Av1Depacketizer().append(ByteReader([0x30, 0x01, 0x10, 0x01, 0x40, 0x30, 0x10]), to: &frame)
        XCTAssertEqual(frame, [0x32, 0x01, 0x10], "temporal delimiter (0x10) and tile list (0x40) left out")
    }

    func testInspectFindsKeyframesAndSequenceStarts() throws {
        let depacketizer = Av1Depacketizer()
        var packetizer = Av1Packetizer()
        let key = try depacketizer.inspect(ByteReader(packetizer.packetize(keyUnit, isKeyframe: true, maxPayloadSize: 1200)[0].bytes))
        XCTAssertEqual(key, RtpPayloadInfo(isFrameStart: true, isKeyframe: true))
        // A key frame OBU alone (frame_type 0) without N or a sequence header: keyframe, start unknown.
        XCTAssertEqual(try depacketizer.inspect(ByteReader([0x10, 0x30, 0x10])), RtpPayloadInfo(isFrameStart: nil, isKeyframe: true))
        XCTAssertEqual(try depacketizer.inspect(ByteReader([0x10, 0x30, 0x30])), RtpPayloadInfo(isFrameStart: nil, isKeyframe: false))
        // A continuation says nothing about the OBU it continues.
        XCTAssertEqual(try depacketizer.inspect(ByteReader([0x90, 0x10])), RtpPayloadInfo(isFrameStart: nil, isKeyframe: false))
    }

    func testMalformedPayloadsAreRefused() {
        let malformed: [(String, [UInt8])] = [
            ("empty", []),
            ("header only", [0x00]),
            ("length past the end", [0x00, 0x05, 0x30, 0x10]),
            ("empty element", [0x00, 0x00]),
            ("W=2 with one element", [0x20, 0x02, 0x30, 0x10]),
            ("N with Z", [0x88, 0x30]),
            ("forbidden bit", [0x10, 0xB0, 0x10]),
            ("extension header missing", [0x10, 0x34]),
            ("obu_size past the element", [0x10, 0x32, 0x05, 0x10]),
            ("LEB128 of nine bytes", [0x00] + [UInt8](repeating: 0x80, count: 8) + [0x01, 0x30]),
            ("fragmented temporal delimiter", [0x50, 0x10]),
        ]
        for (name, bytes) in malformed {
            XCTAssertThrowsError(try Av1Depacketizer().inspect(ByteReader(bytes)), name)
        }
    }

    func testContinuationWithoutAnOpenObuIsRefused() throws {
        var frame: [UInt8] = [0x32, 0x01, 0x10]  // a whole OBU: nothing left open
        XCTAssertThrowsError(try Av1Depacketizer().append(ByteReader([0x90, 0x11]), to: &frame))
        var empty: [UInt8] = []
        try Av1Depacketizer().append(ByteReader([0x90, 0x11]), to: &empty)
        XCTAssertEqual(empty, [], "a piece whose start is not in the frame is dropped")
    }

    func testAssemblerCountsMalformedPacketsAndKeepsGoing() {
        var assembler = FrameAssembler(depacketizer: Av1Depacketizer())
        var line = PacketLine(firstSequence: 10)
        var packetizer = Av1Packetizer()
        let bad = line.packets([RtpPayload(bytes: [0x00, 0x09, 0x30], marker: true)], timestamp: 0)
        let good = line.packets(packetizer.packetize(keyUnit, isKeyframe: true, maxPayloadSize: 1200), timestamp: 3000)
        for packet in bad + good { assembler.insert(packet, now: .zero) }
        XCTAssertEqual(assembler.statistics.malformedPackets, 1)
        XCTAssertEqual(assembler.pollFrame()?.data, Array(keyUnit.dropFirst(2)))
    }

    func testLeb128() throws {
        XCTAssertEqual(Leb128.encode(0), [0x00])
        XCTAssertEqual(Leb128.encode(127), [0x7F])
        XCTAssertEqual(Leb128.encode(128), [0x80, 0x01])
        XCTAssertEqual(Leb128.encode(300), [0xAC, 0x02])
        XCTAssertEqual(Leb128.encode(300, fixedSize: 4), [0xAC, 0x82, 0x80, 0x00])
        XCTAssertEqual(Leb128.size(of: 16_383), 2)
        XCTAssertEqual(Leb128.size(of: 16_384), 3)
        var reader = ByteReader([0xAC, 0x82, 0x80, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F])
        XCTAssertEqual(try reader.readLeb128(), 300)
        XCTAssertEqual(try reader.readLeb128(), Int(UInt32.max))
        var tooLarge = ByteReader([0x80, 0x80, 0x80, 0x80, 0x10])
        XCTAssertThrowsError(try tooLarge.readLeb128(), "2^32 is above the limit")
    }
}
