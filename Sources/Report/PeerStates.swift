/// How many of a set of peers (a worker's, a group's) are connecting or connected now, and
/// how many have failed so far: what the live `rtcswarm_peers` gauge serves by group.
public struct PeerStates: Codable, Sendable, Equatable {
    public var connecting = 0, connected = 0, failed = 0

    public init(connecting: Int = 0, connected: Int = 0, failed: Int = 0) {
        (self.connecting, self.connected, self.failed) = (connecting, connected, failed)
    }

    /// These counts and `other`'s together.
    public func adding(_ other: PeerStates) -> PeerStates {
        PeerStates(connecting: connecting + other.connecting, connected: connected + other.connected, failed: failed + other.failed)
    }
}
