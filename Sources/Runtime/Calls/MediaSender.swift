import Scenario

/// A peer that sends media, which timeline actions change while it runs (a new size,
/// rate or bitrate).
protocol MediaSender: AnyObject {
    func apply(_ action: TimelineAction)
}

extension ServerPeer: MediaSender {}
extension CallPeer: MediaSender {}
