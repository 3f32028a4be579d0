import RTCBase

/// Packetizes single-layer VP9 frames in non-flexible mode as libvpx/libwebrtc send them
/// (RFC 9628 4.2): a 15-bit picture ID increasing per frame, layer indices with
/// TL0PICIDX, P on delta frames, B/E on the first/last packet, and on keyframes a
/// scalability structure with the resolution and a one-picture group.
public struct Vp9Packetizer: RtpPacketizer, Sendable {
    /// The picture ID of the next frame (wraps at 2^15).
    public var pictureId: UInt16
    /// TL0PICIDX of the next frame (every frame is in temporal layer 0).
    public var tl0PicIndex: UInt8
    /// The frame size announced in the scalability structure of keyframes.
    public var resolution: Vp9ScalabilityStructure.LayerSize

    public init(width: UInt16, height: UInt16, initialPictureId: UInt16 = 0) {
        pictureId = initialPictureId & 0x7fff
        tl0PicIndex = 0
        resolution = .init(width: width, height: height)
    }

    public mutating func packetize(_ frame: [UInt8], isKeyframe: Bool, maxPayloadSize: Int) -> [RtpPayload] {
        defer {
            pictureId = (pictureId &+ 1) & 0x7fff
            tl0PicIndex &+= 1
        }
        var payloads: [RtpPayload] = []
        var offset = 0
        var writer = ByteWriter(capacity: maxPayloadSize)
        repeat {
            let first = offset == 0
            var descriptor = Vp9PayloadDescriptor(
                interPredicted: !isKeyframe, beginsFrame: first, endsFrame: false, pictureId: pictureId,
                layer: .init(), tl0PicIndex: tl0PicIndex)
            if first, isKeyframe {
                descriptor.scalability = Vp9ScalabilityStructure(
                    resolutions: [resolution],
                    pictureGroup: [.init(temporalId: 0, switchingUp: false, referenceDifferences: [1])])
            }
            // The descriptor size does not depend on E, so measure with E unset.
            descriptor.write(to: &writer)
            let chunk = maxPayloadSize - writer.count
            precondition(chunk > 0, "maxPayloadSize too small for a VP9 descriptor")
            let end = min(offset + chunk, frame.count)
            if end == frame.count {
                writer.reset()
                descriptor.endsFrame = true
                descriptor.write(to: &writer)
            }
            writer.write(frame[offset..<end])
            payloads.append(RtpPayload(bytes: writer.take(), marker: end == frame.count))
            offset = end
        } while offset < frame.count
        return payloads
    }
}
