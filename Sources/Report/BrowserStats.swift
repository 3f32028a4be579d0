/// What a browser on the other end of a call said about the call in its own `getStats()`
/// (W3C webrtc-stats: `inbound-rtp` and `outbound-rtp`), read once its streams ended.
public struct BrowserStats: Codable, Equatable, Sendable {
    /// `navigator.userAgent`, which names the browser's version.
    public var userAgent: String
    public var streams: [Stream]
    /// The browser's own setup phases, as rtcswarm's `ice_ms` and `dtls_ms` are defined:
    /// from applying the remote description to `iceConnectionState` "connected" (its
    /// transport usable), and from then to `connectionState` "connected" (DTLS done).
    public var iceMs: Double?
    public var dtlsMs: Double?
    /// Its data channels (W3C webrtc-stats `data-channel`); nil from a page that had none.
    public var dataChannels: [DataChannel]?
    /// The ICE restart it answered (a second offer with new credentials); nil when none came.
    public var iceRestart: IceRestart?

    /// The browser's own view of an ICE restart (RFC 8445 9), timed as rtcswarm's
    /// `ice_restart_ms` is on its side: from the re-offer to a pair selected whose local
    /// ufrag is the new one (and `iceConnectionState` connected).
    public struct IceRestart: Codable, Equatable, Sendable {
        /// nil when it never connected again.
        public var ms: Double?
        /// Its local `a=ice-ufrag` before the restart and in its restart answer.
        public var ufrags: [String]
        /// `framesReceived` of its inbound video when it was connected again.
        public var framesReceivedAtConnected: Int?
    }

    /// One `RTCDataChannelStats`, with what the page timed and checked itself.
    public struct DataChannel: Codable, Equatable, Sendable {
        public var label: String
        /// `dataChannelIdentifier`: the SCTP stream id (RFC 8832 6).
        public var id: Int?
        /// `connecting`, `open`, `closing` or `closed`.
        public var state: String?
        public var messagesSent: Int?
        public var messagesReceived: Int?
        public var bytesSent: Int?
        public var bytesReceived: Int?
        /// From its DTLS transport's state "connected" (DTLS done) to the channel's `open`
        /// event, as rtcswarm's `dc_open_ms` is defined.
        public var openMs: Double?
        /// On the channel the page opened and sent on: messages that came back identical
        /// to what it sent, in order, and ones that did not.
        public var echoesIntact: Int?
        public var echoesCorrupt: Int?
    }

    public struct Stream: Codable, Equatable, Sendable {
        /// `inbound` (the browser received it) or `outbound` (the browser sent it).
        public var direction: String
        /// `audio` or `video`.
        public var kind: String
        /// The codec's MIME type (`video/VP8`).
        public var codec: String?
        /// `packetsReceived` or `packetsSent`.
        public var packets: Int?
        public var packetsLost: Int?
        /// `framesReceived` or `framesSent`.
        public var frames: Int?
        public var framesDecoded: Int?
        public var frameWidth: Int?
        public var frameHeight: Int?
        /// NACK messages the browser sent (inbound) or received (outbound).
        public var nackCount: Int?
        /// RFC 3550 interarrival jitter, converted from seconds.
        public var jitterMs: Double?
        /// `retransmittedPacketsSent` or `retransmittedPacketsReceived`.
        public var retransmittedPackets: Int?

        public init(direction: String, kind: String, codec: String? = nil, packets: Int? = nil, packetsLost: Int? = nil,
                    frames: Int? = nil, framesDecoded: Int? = nil, frameWidth: Int? = nil, frameHeight: Int? = nil,
                    nackCount: Int? = nil, jitterMs: Double? = nil, retransmittedPackets: Int? = nil) {
            self.direction = direction
            self.kind = kind
            self.codec = codec
            self.packets = packets
            self.packetsLost = packetsLost
            self.frames = frames
            self.framesDecoded = framesDecoded
            self.frameWidth = frameWidth
            self.frameHeight = frameHeight
            self.nackCount = nackCount
            self.jitterMs = jitterMs
            self.retransmittedPackets = retransmittedPackets
        }
    }

    public init(userAgent: String, streams: [Stream]) {
        self.userAgent = userAgent
        self.streams = streams
    }

    /// The data channel labelled `label`, if the browser had exactly one.
    public func dataChannel(_ label: String) -> DataChannel? {
        let matching = (dataChannels ?? []).filter { $0.label == label }
        return matching.count == 1 ? matching[0] : nil
    }

    /// The one stream of `kind` going `direction`, if the browser had exactly one.
    public func stream(_ direction: String, _ kind: String) -> Stream? {
        let matching = streams.filter { $0.direction == direction && $0.kind == kind }
        return matching.count == 1 ? matching[0] : nil
    }
}
