import RTCBase

/// What a Janus call does once its handle is attached (PROTOCOLS.md section 5).
public enum JanusPlugin: Hashable, Sendable {
    /// EchoTest: our offer with `{audio, video, videocodec?}`, Janus answers and echoes.
    /// Without `videoCodec`, Janus picks by its own order (VP8 first).
    case echoTest(videoCodec: String?)
    /// VideoRoom publisher: create a room with `createOptions` (e.g. `videocodec`,
    /// `publishers`) when `room` is nil, or when Janus has no room `room` (then with that
    /// id); join it as a publisher (as feed `feed` when given, else Janus picks), then
    /// `publish` our offer (`configured` + answer).
    case videoRoomPublisher(room: Int64?, createOptions: [JSONValue.Member], display: String, feed: Int64? = nil)
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

    /// The feed id a publisher of `stream` registers as and its subscribers ask for, so
    /// both ends agree without talking: FNV-1a (64-bit) of the name, kept below 2^53 so
    /// it stays exact in any JSON reader.
    public static func feedID(forStream stream: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in stream.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return max(1, Int64(hash & (1 << 53 - 1)))
    }

    /// The body of the EchoTest `message` that carries an offer, `{audio, video,
    /// videocodec?}`: rtcswarm's echo peers and the browser cohort's page send the same.
    public static func echoBody(videoCodec: String?) -> JSONValue {
        var body: [JSONValue.Member] = [.init("audio", true), .init("video", true)]
        if let videoCodec { body.append(.init("videocodec", .string(videoCodec))) }
        return .object(body)
    }

    /// The VideoRoom `create` body of a publisher's room: `room` as its id, or Janus picks
    /// one when nil; `options` such as `videocodec`.
    public static func createRoomBody(room: Int64?, options: [JSONValue.Member]) -> JSONValue {
        .object([.init("request", "create")] + (room.map { [.init("room", .integer($0))] } ?? []) + options)
    }

    /// The VideoRoom `join` body for room `room`: a publisher's (`display`, and `id` when its
    /// feed is fixed), or a subscriber's (`streams: [{feed}]`); nil for the EchoTest.
    public func joinBody(room: Int64) -> JSONValue? {
        switch self {
        case .echoTest:
            return nil
        case .videoRoomPublisher(_, _, let display, let feed):
            var body: [JSONValue.Member] = [.init("request", "join"), .init("ptype", "publisher"), .init("room", .integer(room)),
                                            .init("display", .string(display))]
            if let feed { body.append(.init("id", .integer(feed))) }
            return .object(body)
        case .videoRoomSubscriber(_, let feed):
            return .object(["request": "join", "ptype": "subscriber", "room": .integer(room), "streams": [.object(["feed": .integer(feed)])]])
        }
    }

    /// The VideoRoom `publish` body that carries a publisher's offer.
    public static func publishBody(display: String) -> JSONValue { .object(["request": "publish", "display": .string(display)]) }

    /// The VideoRoom `start` body that carries a subscriber's answer.
    public static let startBody: JSONValue = .object(["request": "start"])

    /// The VideoRoom `destroy` body of room `room`.
    public static func destroyRoomBody(room: Int64) -> JSONValue { .object(["request": "destroy", "room": .integer(room)]) }

    /// Whether Janus makes the offer (we answer).
    public var serverOffers: Bool {
        if case .videoRoomSubscriber = self { return true }
        return false
    }
}
