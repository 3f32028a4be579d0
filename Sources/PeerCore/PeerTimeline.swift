import RTCBase

/// The instants of connection setup (METRICS.md "Connection setup"), each set once.
public struct PeerTimeline: Sendable, Hashable {
    /// The peer was created.
    public var start: Instant
    public var offerCreated: Instant?
    /// The remote offer or answer was applied.
    public var remoteDescriptionApplied: Instant?
    /// The first pair was nominated and selected.
    public var iceConnected: Instant?
    /// DTLS finished and the SRTP contexts are installed.
    public var dtlsConnected: Instant?
    /// The first SRTP packet passed authentication.
    public var firstPacket: Instant?
    /// The first complete keyframe was reassembled.
    public var firstFrame: Instant?

    public init(start: Instant) { self.start = start }

    /// `signaling_ms`: offer created -> remote answer applied (offerers only).
    public var signalingMs: Double? { between(offerCreated, remoteDescriptionApplied) }
    /// `ice_ms`: remote description applied -> ICE connected.
    public var iceMs: Double? { between(remoteDescriptionApplied, iceConnected) }
    /// `dtls_ms`: ICE connected -> DTLS done and SRTP keys installed.
    public var dtlsMs: Double? { between(iceConnected, dtlsConnected) }
    /// `first_packet_ms`: DTLS done -> first SRTP packet authenticated.
    public var firstPacketMs: Double? { between(dtlsConnected, firstPacket) }
    /// `first_frame_ms`: DTLS done -> first complete keyframe.
    public var firstFrameMs: Double? { between(dtlsConnected, firstFrame) }
    /// `setup_ms`: peer start -> ICE connected and DTLS done.
    public var setupMs: Double? {
        guard let iceConnected, let dtlsConnected else { return nil }
        return max(iceConnected, dtlsConnected).milliseconds(since: start)
    }

    private func between(_ from: Instant?, _ to: Instant?) -> Double? {
        guard let from, let to else { return nil }
        return to.milliseconds(since: from)
    }
}

/// A setup phase of METRICS.md, as named in reports.
public enum PeerPhase: String, Sendable, Hashable, CaseIterable {
    case signaling, ice, dtls
    case firstPacket = "first_packet"
    case firstFrame = "first_frame"
    /// Media flowing after setup (consent lost, DTLS alert, close_notify).
    case connected
}

/// Why a peer failed, and in which phase.
public struct PeerFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var phase: PeerPhase
    public var reason: String

    public init(phase: PeerPhase, reason: String) {
        self.phase = phase
        self.reason = reason
    }

    public var description: String { "\(phase.rawValue): \(reason)" }
}
