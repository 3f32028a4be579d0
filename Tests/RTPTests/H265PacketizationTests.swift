import RTCBase
import RTP
import XCTest

/// RFC 7798 packets byte for byte: aggregation packets (4.4.2), fragmentation units
/// (4.4.3), and what the depacketizer refuses.
final class H265PacketizationTests: XCTestCase {
    func testParameterSetsAndSmallSliceShareOneAggregationPacket() {
        var packetizer = H265Packetizer()
        let frame = AnnexB.startCode + [0x40, 0x01, 0x0C] + [0, 0, 1] + [0x42, 0x01, 0x01] + AnnexB.startCode + [0x26, 0x01, 0xAF]
        let payloads = packetizer.packetize(frame, isKeyframe: true, maxPayloadSize: 1200)
        XCTAssertEqual(
            payloads,
            [
                RtpPayload(
                    bytes: [
                        0x60, 0x01,  // F=0 type 48 (AP), LayerId 0, TID 1
                        0x00, 0x03, 0x40, 0x01, 0x0C,  // size 3: VPS
                        0x00, 0x03, 0x42, 0x01, 0x01,  // size 3: SPS (after a 3-byte start code)
                        0x00, 0x03, 0x26, 0x01, 0xAF,  // size 3: IDR_W_RADL slice
                    ], marker: true)
            ])
    }

    func testAggregationHeaderTakesTheLowestTemporalIdAndAnyForbiddenBit() {
        var packetizer = H265Packetizer()
        // TID 3 and TID 2 (nuh_temporal_id_plus1 4 and 3), both LayerId 0.
        let frame = AnnexB.startCode + [0x02, 0x04, 0x11] + AnnexB.startCode + [0x02, 0x03, 0x22]
        XCTAssertEqual(packetizer.packetize(frame, isKeyframe: false, maxPayloadSize: 100).first.map { Array($0.bytes.prefix(2)) },
                       [0x60, 0x03])
    }

    func testLargeNalUnitGoesAsFragmentationUnits() {
        var packetizer = H265Packetizer()
        let frame = AnnexB.startCode + [0x26, 0x01] + nonZeroBytes(10, seed: 3)
        let payloads = packetizer.packetize(frame, isKeyframe: true, maxPayloadSize: 7)
        // 10 data bytes in chunks of 4: payload header type 49 (0x62 0x01), FU header S/E + type 19.
        XCTAssertEqual(payloads.map { Array($0.bytes.prefix(3)) }, [[0x62, 0x01, 0x93], [0x62, 0x01, 0x13], [0x62, 0x01, 0x53]])
        XCTAssertEqual(payloads.map(\.bytes.count), [7, 7, 5])
        XCTAssertEqual(payloads.map(\.marker), [false, false, true])
    }

    func testFragmentsRebuildTheNalUnitHeader() throws {
        var frame: [UInt8] = []
        for payload in [[0x62, 0x01, 0x93, 0xAA], [0x62, 0x01, 0x53, 0xBB]] as [[UInt8]] {
            try H265Depacketizer().append(ByteReader(payload), to: &frame)
        }
        XCTAssertEqual(frame, AnnexB.startCode + [0x26, 0x01, 0xAA, 0xBB])
    }

    func testInspectFindsKeyframesAndAccessUnitStarts() throws {
        let depacketizer = H265Depacketizer()
        let aggregate = try depacketizer.inspect(ByteReader([0x60, 0x01, 0x00, 0x02, 0x40, 0x01, 0x00, 0x03, 0x26, 0x01, 0xAF]))
        XCTAssertEqual(aggregate, RtpPayloadInfo(isFrameStart: true, isKeyframe: true))
        let craFragment = try depacketizer.inspect(ByteReader([0x62, 0x01, 0x95, 0xAA]))  // FU start of a CRA (21)
        XCTAssertEqual(craFragment, RtpPayloadInfo(isFrameStart: nil, isKeyframe: true))
        let trail = try depacketizer.inspect(ByteReader([0x02, 0x01, 0xAA]))
        XCTAssertEqual(trail, RtpPayloadInfo(isFrameStart: nil, isKeyframe: false))
    }

    func testMalformedPayloadsThrow() {
        let depacketizer = H265Depacketizer()
        let cases: [(String, [UInt8])] = [
            ("one byte", [0x02]),
            ("forbidden bit", [0x82, 0x01, 0xAA]),
            ("PACI", [0x64, 0x01, 0xAA]),
            ("FU without data", [0x62, 0x01, 0x93]),
            ("FU with S and E", [0x62, 0x01, 0xD3, 0xAA]),
            ("FU without FU header", [0x62, 0x01]),
            ("empty AP", [0x60, 0x01]),
            ("AP unit of size 1", [0x60, 0x01, 0x00, 0x01, 0x02]),
            ("AP unit past the end", [0x60, 0x01, 0x00, 0x09, 0x02, 0x01]),
        ]
        for (name, payload) in cases {
            var frame: [UInt8] = []
            XCTAssertThrowsError(try depacketizer.inspect(ByteReader(payload)), name)
            XCTAssertThrowsError(try depacketizer.append(ByteReader(payload), to: &frame), name)
        }
    }
}
