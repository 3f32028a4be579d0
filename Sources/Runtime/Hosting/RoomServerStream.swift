import EventLoop
import RoomServer
import RTCBase

/// The built-in room server on the loop: the generic stream host, listening, carrying
/// `RoomServerCore`. Used by `rtcswarm serve` and, on a free loopback port, as the
/// embedded default target of a run.
public typealias RoomServerStream = StreamHost<RoomServerCore>

extension StreamHost where Machine == RoomServerCore {
    /// Starts listening on `address` (port 0 for a free one).
    public convenience init(loop: EventLoop, address: SocketAddress, configuration: RoomServerConfiguration,
                            seed: UInt64 = 1) throws(SystemError) {
        self.init(loop: loop, machine: RoomServerCore(configuration: configuration, seed: seed))
        try listen(on: address)
    }

    /// Where it listens (until `shutdown`).
    public var address: SocketAddress { listeningAddress ?? SocketAddress(ipv4: 127, 0, 0, 1, port: 0) }
    public var stats: RoomServerStats { machine.stats }

    /// Sends every client Close 1001, stops listening, and closes what is left once the
    /// closes are written.
    public func shutdown() {
        stopListening()
        perform { $0.shutdown(now: $1) }
    }
}
