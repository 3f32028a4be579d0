import Signaling

/// A peer-to-peer call's signaling running on the loop, whatever carries it: a stream
/// host of a `CallChannel` (a room server, a direct socket). `CallPeer` drives every such
/// target through this.
public protocol CallChannelDriver: AnyObject {
    var onEvent: (CallChannelEvent) -> Void { get set }
    func send(_ signal: P2PSignal)
    /// Leaves politely, then closes.
    func leave()
}

extension StreamHost: CallChannelDriver where Machine: CallChannel {
    public func send(_ signal: P2PSignal) { perform { $0.send(signal, now: $1) } }
    public func leave() {
        perform { $0.leave(now: $1) }
        stopListening()
    }
}
