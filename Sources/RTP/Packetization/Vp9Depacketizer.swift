import RTCBase

/// Reads VP9 payloads (RFC 9628): B starts a frame, E ends it, and a frame that is not
/// inter-predicted (P=0) at its start is a keyframe. With spatial layers each layer frame
/// (B...E) comes out of the assembler on its own, all with the picture's timestamp.
public struct Vp9Depacketizer: RtpDepacketizer {
    public init() {}

    public func inspect(_ payload: ByteReader) throws(ParseError) -> RtpPayloadInfo {
        var reader = payload
        let descriptor = try Vp9PayloadDescriptor(from: &reader)
        return RtpPayloadInfo(
            isFrameStart: descriptor.beginsFrame, isFrameEnd: descriptor.endsFrame,
            isKeyframe: descriptor.beginsFrame && !descriptor.interPredicted)
    }

    public func append(_ payload: ByteReader, to frame: inout [UInt8]) throws(ParseError) {
        var reader = payload
        _ = try Vp9PayloadDescriptor(from: &reader)
        frame.append(contentsOf: reader.readRest())
    }
}
