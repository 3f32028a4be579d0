import RTCBase
import RTP
import SDP

/// One negotiated media section as the outside sees it (`Peer.sections`).
public struct NegotiatedSection: Sendable, Hashable {
    public var mid: String
    public var kind: MediaKind
    /// This side's direction after negotiation.
    public var direction: MediaDirection
    public var codec: Codec
    /// The payload type packets are sent with: the one the remote description gave the
    /// codec (RFC 3264 5.1: each side receives on the numbers it declared).
    public var payloadType: UInt8
    /// The RTX payload type used for resends (RFC 4588), when both sides offered RTX.
    public var rtxPayloadType: UInt8?
    /// Whether missing packets are NACKed (`a=rtcp-fb nack` negotiated).
    public var nack: Bool
    public var localSsrc: UInt32?
    /// From the remote `a=ssrc` lines, or learned from the first packet.
    public var remoteSsrc: UInt32?
}

/// The media state of one negotiated section: what it sends (packetizer, SSRC) and what
/// it receives (remote SSRC, frame assembler, keyframe bookkeeping).
struct MediaSection: Sendable {
    var info: NegotiatedSection
    /// Payload types that may arrive for the codec: local and remote numbers.
    var receivePayloadTypes: Set<UInt8>
    var remoteRtxSsrc: UInt32?
    var packetizer: CodecPacketizer?
    var framesSent = 0
    var assembler: FrameAssembler<CodecDepacketizer>?
    /// No keyframe since the stream began or since frames were dropped (video only).
    var waitingForKeyframe = true
    /// A keyframe request went out and no keyframe came since: ask again periodically.
    var askedForKeyframe = false
    var framesDroppedSeen = 0

    /// Puts a received packet in the frame assembler, made on the first, whose frames wait
    /// `wait` for older incomplete ones; returns how many packets it found malformed. One
    /// access to the section: reading `assembler` from outside copied the section, and each
    /// write through `Peer.media` checked the array's uniqueness, on every packet.
    /// `deltaFrameBytes`: `PeerConfiguration.deltaFrameBytes`, for the assembler made now.
    mutating func assemble(_ packet: RtpPacket, now: Instant, wait: Duration, deltaFrameBytes: Bool) -> Int {
        if assembler == nil {
            assembler = FrameAssembler(
                depacketizer: CodecDepacketizer(codec: info.codec),
                // 512 packets hold a 600 KB keyframe (2160p) with room for reordering;
                // the ring costs about 64 bytes a slot for every video stream received.
                capacity: info.codec.isVideo ? 512 : 64)
            assembler?.deltaFrameBytes = deltaFrameBytes
        }
        // In place: its packet ring is never shared, so never copied.
        assembler?.maxWait = wait
        let malformedBefore = assembler?.statistics.malformedPackets ?? 0
        assembler?.insert(packet, now: now)
        return (assembler?.statistics.malformedPackets ?? 0) - malformedBefore
    }

    /// Whether the assembler dropped frames since the last call; the section then waits for
    /// a keyframe (RFC 4585 6.3.1). Mutating so that it reads the assembler in place: read
    /// from `Peer.media`, it copied the whole section for every frame.
    mutating func framesDroppedSinceLastAsked() -> Bool {
        let dropped = assembler?.statistics.framesDropped ?? 0
        guard dropped > framesDroppedSeen else { return false }
        framesDroppedSeen = dropped
        waitingForKeyframe = true
        return true
    }

    var sends: Bool { info.direction.sends && info.localSsrc != nil }
    var receives: Bool { info.direction.receives }
}
