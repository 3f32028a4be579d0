import RTCBase

/// What a Janus call does once its handle is attached (PROTOCOLS.md section 5).
public enum JanusPlugin: Hashable, Sendable {
    /// EchoTest: our offer with `{audio, video, videocodec?}`, Janus answers and echoes.
    /// Without `videoCodec`, Janus picks by its own order (VP8 first).
    case echoTest(videoCodec: String?)
    /// VideoRoom publisher: create a room with `createOptions` (e.g. `videocodec`,
    /// `publishers`) when `room` is nil, join it as a publisher, then `publish` our offer
    /// (`configured` + answer).
    case videoRoomPublisher(room: Int64?, createOptions: [JSONValue.Member], display: String)
    /// VideoRoom subscriber: join with `streams: [{feed}]`; Janus sends the offer, our
    /// answer goes back with `start`.
    case videoRoomSubscriber(room: Int64, feed: Int64)

    /// The plugin's package name for `attach`.
    public var packageName: String {
        switch self {
        case .echoTest: "janus.plugin.echotest"
        case .videoRoomPublisher, .videoRoomSubscriber: "janus.plugin.videoroom"
        }
    }

    /// Whether Janus makes the offer (we answer).
    public var serverOffers: Bool {
        if case .videoRoomSubscriber = self { return true }
        return false
    }
}
