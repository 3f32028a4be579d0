import RTP
import Media
import RTCBase
import Scenario
import Signaling

extension JanusPlugin {
    /// The plugin call a `role` peer makes on a Janus `target`, in the codec it sends:
    /// - echo peers ask the EchoTest for their own video codec (`videocodec` in its body),
    ///   so Janus forces it instead of picking from the offer by its own order (VP8 first);
    /// - a publisher asks for a room that carries its video codec: the room it creates (no
    ///   `room_id`, or a `room_id` Janus does not have) is made with `videocodec` set to it;
    /// - players subscribe to the feed their stream's name gives in `room_id`.
    ///
    /// `video` is the codec the peer sends (nil without video); `display` names a publisher.
    static func forPeer(target: Target, role: PeerGroup.Role, stream: String, display: String, video: Codec?,
                        groupIndex: Int) throws(TargetError) -> JanusPlugin {
        let codec = video.map(janusName)
        let room = target.janus?.roomId.map { Int64(bitPattern: $0) }
        switch (target.janus?.plugin, role) {
        case (.echotest, _):
            return .echoTest(videoCodec: codec)
        case (.videoroom, .publisher):
            // In a named room, the stream's name fixes the feed id its players ask for.
            let feed = room == nil ? nil : feedID(forStream: stream)
            let options: [JSONValue.Member] = codec.map { [.init("videocodec", .string($0))] } ?? []
            return .videoRoomPublisher(room: room, createOptions: options, display: display, feed: feed)
        case (.videoroom, _):
            guard let room else {
                throw TargetError("groups[\(groupIndex)]: Janus VideoRoom players need target.janus.room_id")  // validate() says so first
            }
            return .videoRoomSubscriber(room: room, feed: feedID(forStream: stream))
        case (nil, _):
            throw TargetError("groups[\(groupIndex)]: target.janus.plugin is required for a janus target")
        }
    }

    /// Janus's name for a video codec (`videocodec` in the EchoTest body and in VideoRoom
    /// rooms, janus.plugin.videoroom.jcfg): vp8, vp9, h264.
    static func janusName(_ codec: Codec) -> String { codec.rawValue.lowercased() }
}
