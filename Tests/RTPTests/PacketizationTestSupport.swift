import RTCBase
import RTP

/// Builds RTP packets around packetizer payloads and runs them through an assembler.
struct PacketLine {
    var sequenceNumber: UInt16
    var writer = ByteWriter(capacity: 1500)

    init(firstSequence: UInt16) { sequenceNumber = firstSequence }

    mutating func packets(_ payloads: [RtpPayload], timestamp: UInt32) -> [RtpPacket] {
        payloads.map { payload in
            writer.reset()
            RtpHeader(
                marker: payload.marker, payloadType: 96, sequenceNumber: sequenceNumber, timestamp: timestamp,
                ssrc: 1
            ).write(payload: payload.bytes, to: &writer)
            sequenceNumber &+= 1
            // Packets made here are well-formed by construction.
            return try! RtpPacket(parsing: writer.bytes)
        }
    }
}

/// Bytes with no zero, so H.264 test NAL units hold no start code by accident.
func nonZeroBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: 1...255, using: &generator) }
}

/// An Annex-B access unit: SPS, PPS and an IDR slice (or a non-IDR slice) of `size` bytes.
func h264AccessUnit(sliceSize: Int, keyframe: Bool, seed: UInt64) -> [UInt8] {
    var frame: [UInt8] = []
    if keyframe {
        frame += AnnexB.startCode + [0x67] + nonZeroBytes(9, seed: seed)  // SPS, NRI=3 type 7
        frame += AnnexB.startCode + [0x68, 0xCE, 0x38, 0x80]  // PPS, NRI=3 type 8
    }
    frame += AnnexB.startCode + [keyframe ? 0x65 : 0x41] + nonZeroBytes(max(0, sliceSize - 1), seed: seed + 1)
    return frame
}

/// An Annex-B H.265 access unit: VPS, SPS, PPS and an IDR_W_RADL slice (type 19), or a
/// TRAIL_R slice (type 1), of `size` bytes, every NAL unit with LayerId 0 and TID 0.
func h265AccessUnit(sliceSize: Int, keyframe: Bool, seed: UInt64) -> [UInt8] {
    var frame: [UInt8] = []
    if keyframe {
        frame += AnnexB.startCode + [0x40, 0x01] + nonZeroBytes(20, seed: seed)  // VPS, type 32
        frame += AnnexB.startCode + [0x42, 0x01] + nonZeroBytes(30, seed: seed + 2)  // SPS, type 33
        frame += AnnexB.startCode + [0x44, 0x01, 0xC1, 0x72, 0xB4]  // PPS, type 34
    }
    frame += AnnexB.startCode + [keyframe ? 0x26 : 0x02, 0x01] + nonZeroBytes(max(0, sliceSize - 2), seed: seed + 1)
    return frame
}

/// An AV1 temporal unit in the low-overhead format, without a temporal delimiter (which
/// the packetizer leaves out, so the depacketizer's output equals it): a sequence header
/// before a key frame, then a frame OBU of `frameSize` payload bytes whose first byte says
/// KEY_FRAME (0x10) or INTER_FRAME (0x30) with show_frame set (AV1 5.9.2).
func av1TemporalUnit(frameSize: Int, keyframe: Bool, seed: UInt64) -> [UInt8] {
    var unit: [UInt8] = []
    if keyframe { unit += [0x0A, 0x0B] + nonZeroBytes(11, seed: seed + 2) }  // OBU_SEQUENCE_HEADER with obu_size 11
    let payload = [keyframe ? 0x10 : 0x30] + nonZeroBytes(max(0, frameSize - 1), seed: seed)
    return unit + [0x32] + Leb128.encode(payload.count) + payload  // OBU_FRAME with obu_size
}
