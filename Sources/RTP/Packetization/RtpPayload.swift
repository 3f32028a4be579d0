/// One RTP payload produced by a packetizer; the sender adds the RTP header.
public struct RtpPayload: Equatable, Sendable {
    public var bytes: [UInt8]
    /// The RTP marker bit: set on the last packet of a video frame (RFC 3550 5.1).
    public var marker: Bool

    public init(bytes: [UInt8], marker: Bool) {
        self.bytes = bytes
        self.marker = marker
    }
}
