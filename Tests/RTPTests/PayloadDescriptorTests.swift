import RTCBase
import RTP
import XCTest

final class PayloadDescriptorTests: XCTestCase {
    func testVp8DescriptorWith15BitPictureId() throws {
        var writer = ByteWriter()
        Vp8PayloadDescriptor(startOfPartition: true, pictureId: 0x1234).write(to: &writer)
        XCTAssertEqual(
            writer.bytes,
            [
                0x90,  // X=1 R=0 N=0 S=1 R=0 PID=0
                0x80,  // I=1 L=0 T=0 K=0
                0x92, 0x34,  // M=1, picture ID 0x1234
            ])
        let keyframe = try Vp8Depacketizer().inspect(ByteReader(writer.bytes + [0x50]))  // P=0
        XCTAssertEqual(keyframe, RtpPayloadInfo(isFrameStart: true, isKeyframe: true))
        let delta = try Vp8Depacketizer().inspect(ByteReader(writer.bytes + [0x51]))  // P=1
        XCTAssertFalse(delta.isKeyframe)
    }

    func testVp8DescriptorWithAllExtensionFields() throws {
        // X=1 N=1 S=0 PID=2 | I L T K | 7-bit picture ID 5 | TL0PICIDX 9 | TID/Y/KEYIDX | data
        var reader = ByteReader([0xA2, 0xF0, 0x05, 0x09, 0x40, 0xAB])
        let descriptor = try Vp8PayloadDescriptor(from: &reader)
        XCTAssertTrue(descriptor.nonReference)
        XCTAssertFalse(descriptor.startOfPartition)
        XCTAssertEqual(descriptor.partitionIndex, 2)
        XCTAssertEqual(descriptor.pictureId, 5)
        XCTAssertEqual(descriptor.tl0PicIndex, 9)
        XCTAssertEqual(descriptor.temporalKeyByte, 0x40)
        XCTAssertEqual(descriptor.size, 5)
        XCTAssertEqual(try reader.readU8(), 0xAB)
        XCTAssertThrowsError(try Vp8Depacketizer().inspect(ByteReader([0x90, 0x80, 0x92, 0x34])), "no VP8 data")
    }

    func testVp9KeyframeDescriptorCarriesResolution() throws {
        var packetizer = Vp9Packetizer(width: 640, height: 360, initialPictureId: 0x0102)
        let payloads = packetizer.packetize([0xAA, 0xBB], isKeyframe: true, maxPayloadSize: 1200)
        XCTAssertEqual(
            payloads.first?.bytes,
            [
                0xAE,  // I=1 P=0 L=1 F=0 B=1 E=1 V=1 Z=0
                0x81, 0x02,  // M=1, picture ID 0x0102
                0x00,  // TID=0 U=0 SID=0 D=0
                0x00,  // TL0PICIDX 0
                0x18,  // SS: N_S=0 Y=1 G=1
                0x02, 0x80, 0x01, 0x68,  // 640 x 360
                0x01, 0x04, 0x01,  // N_G=1: TID=0 U=0 R=1, P_DIFF 1
                0xAA, 0xBB,
            ])
        var reader = ByteReader(payloads.first?.bytes ?? [])
        let descriptor = try Vp9PayloadDescriptor(from: &reader)
        XCTAssertEqual(descriptor.scalability?.resolutions, [.init(width: 640, height: 360)])
        let delta = packetizer.packetize([0xCC], isKeyframe: false, maxPayloadSize: 1200)
        XCTAssertEqual(Array(delta.first?.bytes.prefix(5) ?? []), [0xEC, 0x81, 0x03, 0x00, 0x01])  // P=1, no V
        XCTAssertFalse(try Vp9Depacketizer().inspect(ByteReader(delta.first?.bytes ?? [])).isKeyframe)
    }

    func testVp9FlexibleModeReferenceIndices() throws {
        // I=0 P=1 L=1 F=1 B=1 E=0 V=0 | TID=1 SID=0 | P_DIFF 1 (N=1), P_DIFF 2 (N=0) | data
        var reader = ByteReader([0x78, 0x20, 0x03, 0x04, 0x99])
        let descriptor = try Vp9PayloadDescriptor(from: &reader)
        XCTAssertTrue(descriptor.flexible)
        XCTAssertEqual(descriptor.layer?.temporalId, 1)
        XCTAssertNil(descriptor.tl0PicIndex)
        XCTAssertEqual(descriptor.referenceDifferences, [1, 2])
        XCTAssertEqual(reader.remaining, 1)
    }

    func testAnnexBSplitsThreeAndFourByteStartCodes() {
        let stream: [UInt8] = [0xFF, 0, 0, 0, 1, 0x67, 0x01, 0, 0, 1, 0x68, 0x02, 0, 0, 0, 0, 1, 0x65, 0, 0, 1]
        XCTAssertEqual(AnnexB.nalUnits(in: stream), [5..<7, 10..<12, 17..<18])
    }
}
