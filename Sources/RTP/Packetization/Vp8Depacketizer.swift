import RTCBase

/// Reads VP8 payloads (RFC 7741): the frame starts where S=1 and PID=0; it is a
/// keyframe when the P bit of the VP8 payload header (bit 0 of its first byte, 4.3) is 0.
public struct Vp8Depacketizer: RtpDepacketizer {
    public init() {}

    public func inspect(_ payload: ByteReader) throws(ParseError) -> RtpPayloadInfo {
        var reader = payload
        let descriptor = try Vp8PayloadDescriptor(from: &reader)
        let start = descriptor.startsFrame
        let payloadHeader = try reader.peekU8()
        return RtpPayloadInfo(isFrameStart: start, isKeyframe: start && payloadHeader & 0x01 == 0)
    }

    public func append(_ payload: ByteReader, to frame: inout [UInt8]) throws(ParseError) {
        var reader = payload
        _ = try Vp8PayloadDescriptor(from: &reader)
        frame.append(contentsOf: reader.readRest())
    }
}
