import RTCBase

/// An ICE restart on an established EchoTest or VideoRoom publisher call: our offer again
/// with new credentials, in the plugin message that renegotiates (EchoTest's own body,
/// VideoRoom `configure`). The Janus core sees the new ufrag (RFC 8445 9), restarts its
/// agent, and the plugin's answer carries Janus's new credentials and candidates, handed
/// on as `.iceRestarted` with the whole answer. A VideoRoom subscriber (Janus offers) has
/// none; Janus refusing it fails the call in its words.
extension JanusSession {
    mutating func restartIce(offer: String, now: Instant) {
        guard case .established = phase, !plugin.serverOffers, handleID != nil, !pending.values.contains(.restart) else { return }
        let body: JSONValue = switch plugin {
        case .echoTest: .object(["audio": true, "video": true])
        case .videoRoomPublisher, .videoRoomSubscriber: .object(["request": "configure"])
        }
        send(.restart, ["janus": "message", "body": body, "jsep": .object(["type": "offer", "sdp": .string(offer)])], now: now)
    }

    /// The plugin's answer to the restart offer.
    mutating func restartAnswered(_ message: JanusMessage) {
        guard message.jsepType == "answer", let sdp = message.jsepSDP else {
            return outbox.fail(.badAnswer, "Janus answered the ICE restart without an SDP answer: \(CallSetupOutbox.quote(Array(message.json.serialized.utf8)))")
        }
        if let error = CallSetupOutbox.checkRemoteSDP(sdp, from: "Janus") { return outbox.emit(.failed(error)) }
        outbox.emit(.iceRestarted(sdp))
    }
}
