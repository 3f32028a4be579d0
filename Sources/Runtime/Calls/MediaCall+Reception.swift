import ICE
import RTCBase
import SDP

/// What a call can tell about what it received: a video never at its expected size, kinds
/// that never arrived, and a connection lost though nobody hung up.
extension MediaCall {
    /// Why a received video stream fails resolution survival outright (no frame at the
    /// expected size), or nil.
    var videoNeverAtExpectedSize: String? {
        observers.values.lazy.compactMap(\.neverAtExpectedSize).first
    }

    /// The kinds the call was negotiated to receive (its own direction after the answer)
    /// of which no packet has arrived, video first.
    var kindsNotReceived: [MediaKind] {
        guard let peer else { return [] }
        let arrived = peer.stats(now: loop.now()).received.filter { $0.rtp.packetsReceived > 0 }.map { $0.codec.isVideo ? MediaKind.video : .audio }
        let expected = peer.sections.filter(\.direction.receives).map(\.kind)
        return [MediaKind.video, .audio].filter { expected.contains($0) && !arrived.contains($0) }
    }

    /// Why a call that was up is no longer, though nobody hung up: the other side stopped
    /// answering ICE consent checks (RFC 7675 5.1), or the media it received stopped
    /// `receiveTimeout` or more before `now` (a media server that died sends nothing
    /// more, long before consent expires). Nil while the call is alive.
    func connectionLost(now: Instant) -> String? {
        guard let peer else { return nil }
        if peer.iceState == .disconnected {
            return "connection lost: the other side stopped answering ICE consent checks (RFC 7675)"
        }
        guard let last = observers.values.compactMap(\.lastArrival).max(), now - last >= media.receiveTimeout else { return nil }
        return "media stopped: nothing received for the last \(String(format: "%.1f", (now - last).milliseconds / 1000)) s"
    }
}
