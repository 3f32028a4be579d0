import EventLoop
import Net
import RTCBase
import Signaling

/// A room client on the loop: the generic stream host carrying one `RoomClient`.
public typealias RoomClientStream = StreamHost<SingleConnection<RoomClient>>

extension StreamHost where Machine == SingleConnection<RoomClient> {
    /// Connects `client` to its server at once (TLS for `https`/`wss` URLs, with `tls`);
    /// a connection that cannot be made ends as `.closed` with why.
    public convenience init(loop: EventLoop, client: RoomClient, tls: TLSClientContext?,
                            onEvent: @escaping (RoomClient.Event) -> Void) {
        self.init(loop: loop, machine: SingleConnection(client), tls: tls)
        self.onEvent = onEvent
        run()
    }

    public var client: RoomClient { machine.machine }
    public func send(_ message: RoomMessage) { perform { $0.machine.send(message, now: $1) } }
    /// Closes politely: a WebSocket Close, then TCP once it is written.
    public func close() { perform { $0.machine.close(now: $1) } }
}

/// How a peer reaches a room server: its URL, the framing, the event names, and TLS.
public struct RoomAccess: Sendable {
    public var target: ResolvedTarget
    public var transport: RoomClient.Transport
    public var names: RoomEventNames
    /// Needed for `https` and `wss` room URLs.
    public var tls: TLSClientContext?

    public init(target: ResolvedTarget, transport: RoomClient.Transport, names: RoomEventNames, tls: TLSClientContext? = nil) {
        self.target = target
        self.transport = transport
        self.names = names
        self.tls = tls
    }

    /// A member's client, connecting now.
    func connect(loop: EventLoop, seed: UInt64, onEvent: @escaping (RoomClient.Event) -> Void) -> RoomClientStream {
        RoomClientStream(loop: loop, client: client(seed: seed), tls: tls, onEvent: onEvent)
    }

    /// A call's signaling through `room`, connecting now.
    func call(loop: EventLoop, room: String, seed: UInt64, onEvent: @escaping (CallChannelEvent) -> Void) -> CallChannelDriver {
        let host = StreamHost(loop: loop, machine: RoomCallChannel(client: client(seed: seed), room: room), tls: tls)
        host.onEvent = onEvent
        host.run()
        return host
    }

    private func client(seed: UInt64) -> RoomClient {
        RoomClient(endpoint: target.endpoint, transport: transport, names: names, seed: seed)
    }
}
