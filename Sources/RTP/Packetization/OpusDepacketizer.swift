import RTCBase

/// Reads Opus payloads (RFC 7587): every payload is a whole Opus packet, a frame of its
/// own that decodes without earlier ones. An empty payload is malformed.
public struct OpusDepacketizer: RtpDepacketizer {
    public init() {}

    public func inspect(_ payload: ByteReader) throws(ParseError) -> RtpPayloadInfo {
        guard !payload.isAtEnd else { throw .truncated("empty Opus payload") }
        return RtpPayloadInfo(isFrameStart: true, isFrameEnd: true, isKeyframe: true)
    }

    public func append(_ payload: ByteReader, to frame: inout [UInt8]) throws(ParseError) {
        var reader = payload
        frame.append(contentsOf: reader.readRest())
    }
}
