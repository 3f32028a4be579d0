import SDP

extension JanusSession {
    /// Why a VideoRoom `publish` fails although Janus answered: it refused the video we
    /// offered (the answer's video section has port 0, RFC 3264 section 6), which the
    /// VideoRoom does when the room's `videocodec` list has none of our codecs. Nil when
    /// the video was taken, none was offered, or either SDP does not parse (checked apart).
    func refusedVideo(answer: String) -> CallSetupError? {
        guard let offer, let offered = try? SessionDescription.parse(offer), let answered = try? SessionDescription.parse(answer) else {
            return nil
        }
        for (ours, theirs) in zip(offered.media, answered.media) where ours.kind == .video && ours.port != 0 && theirs.port == 0 {
            let codecs = ours.attributes.compactMap { attribute -> String? in
                guard case .rtpmap(let map) = attribute, map.name.lowercased() != "rtx" else { return nil }
                return map.name
            }
            let room = roomID.map(String.init) ?? "?"
            return CallSetupError(.refused, "Janus VideoRoom room \(room) refused our video (\(codecs.joined(separator: ", "))): "
                + "the room's videocodec does not include it; use a room that carries it, or a room id Janus does not have "
                + "(the publisher then creates it for its codec)")
        }
        return nil
    }
}
