import PeerCore
import SDP
import Scenario

/// What a call sends: each kind's current track and the worker's shared encoder behind it,
/// subscribed once the call is connected. A timeline action switches the video to the
/// encoder of the new settings (no renegotiation; the new size starts on a keyframe), and
/// a mute takes the kind off its encoder ("stop") or onto the shared encoder of black
/// frames or silence at its settings; an encoder nobody takes frames from any more stops.
final class MediaSending {
    private let fanout: MediaFanout
    /// Hands one packetized frame of a kind to the peer.
    private let deliver: (PacketizedFrame, MediaKind) -> Void
    private var tracks: [MediaKind: SharedEncoder.Track] = [:]
    /// The kinds muted now, with what they send meanwhile.
    private var muted: [MediaKind: MuteMode] = [:]
    /// The sending section's stream per kind, once connected.
    private var streams: [MediaKind: SentStreamStats] = [:]
    /// The encoder each kind takes frames from now.
    private var attached: [MediaKind: SharedEncoder] = [:]

    init(video: SharedEncoder.Track?, audio: SharedEncoder.Track?, fanout: MediaFanout,
         deliver: @escaping (PacketizedFrame, MediaKind) -> Void) {
        self.fanout = fanout
        self.deliver = deliver
        tracks[.video] = video
        tracks[.audio] = audio
    }

    /// The peer's sending sections get the encoder of their kind, and a keyframe to start on.
    func start(_ peer: Peer, sent: [SentStreamStats]) {
        for section in peer.sections where section.direction.sends {
            guard tracks[section.kind] != nil, let stream = sent.first(where: { $0.mid == section.mid }) else { continue }
            streams[section.kind] = stream
            attach(section.kind)
        }
    }

    /// A receiver lost its picture (PLI/FIR).
    func requestKeyframe() { attached[.video]?.requestKeyframe() }

    /// A timeline action on what this call sends: new video settings, or a mute or unmute.
    func apply(_ action: TimelineAction) {
        if let track = action.action.mutedTrack {
            let kind: MediaKind = track == .video ? .video : .audio
            muted[kind] = action.action.mutes ? action.muteMode : nil
            reattach(kind)
            return
        }
        guard let track = tracks[.video]?.applying(action), track != tracks[.video] else { return }
        tracks[.video] = track
        reattach(.video)
    }

    /// Stops sending; the call stays up.
    func stop() {
        for kind in attached.keys { detach(kind) }
        streams = [:]
    }

    /// What `kind` sends now: its track, the black or silent stand-in of a muted one, or
    /// nothing (a "stop" mute).
    private func sending(_ kind: MediaKind) -> SharedEncoder.Track? {
        guard let track = tracks[kind] else { return nil }
        switch muted[kind] {
        case nil: return track
        case .stop?: return nil
        case .black?, .silence?: return .muted(track)
        }
    }

    /// Moves `kind` to the encoder of what it sends now, once the call sends it.
    private func reattach(_ kind: MediaKind) {
        detach(kind)
        attach(kind)
    }

    /// Takes `kind`'s frames from the encoder of what it sends now, from a keyframe on.
    private func attach(_ kind: MediaKind) {
        guard attached[kind] == nil, let track = sending(kind), let stream = streams[kind] else { return }
        let encoder = fanout.encoder(for: track)
        fanout.senders.register(ssrc: stream.ssrc, timestampOffset: stream.timestampOffset, encoder: encoder)
        encoder.subscribe(self) { [weak self] frame in self?.deliver(frame, kind) }
        if kind == .video { encoder.requestKeyframe() }
        attached[kind] = encoder
    }

    /// Stops taking `kind`'s frames; its encoder stops when nobody else takes them.
    private func detach(_ kind: MediaKind) {
        guard let encoder = attached.removeValue(forKey: kind) else { return }
        encoder.unsubscribe(self)
        if let stream = streams[kind] { fanout.senders.unregister(ssrc: stream.ssrc) }
        fanout.release(encoder.track)
    }
}
