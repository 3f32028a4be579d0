import RTCBase

/// Packetizes VP8 frames (RFC 7741 4.2-4.4): each payload carries a descriptor with a
/// 15-bit picture ID that increases per frame; the first has S=1 and partition index 0.
public struct Vp8Packetizer: RtpPacketizer, Sendable {
    /// The picture ID of the next frame (wraps at 2^15).
    public var pictureId: UInt16

    public init(initialPictureId: UInt16 = 0) { pictureId = initialPictureId & 0x7fff }

    public mutating func packetize(_ frame: [UInt8], isKeyframe: Bool, maxPayloadSize: Int) -> [RtpPayload] {
        defer { pictureId = (pictureId &+ 1) & 0x7fff }
        let chunk = maxPayloadSize - 4
        precondition(chunk > 0, "maxPayloadSize too small for a VP8 descriptor")
        var payloads: [RtpPayload] = []
        var offset = 0
        var writer = ByteWriter(capacity: maxPayloadSize)
        repeat {
            let end = min(offset + chunk, frame.count)
            Vp8PayloadDescriptor(startOfPartition: offset == 0, pictureId: pictureId).write(to: &writer)
            writer.write(frame[offset..<end])
            payloads.append(RtpPayload(bytes: writer.take(), marker: end == frame.count))
            offset = end
        } while offset < frame.count
        return payloads
    }
}
