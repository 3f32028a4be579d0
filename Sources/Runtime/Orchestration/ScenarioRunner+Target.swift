import EventLoop
import Net
import RoomServer
import RTCBase
import Scenario
import Signaling

extension ScenarioRunner {
    /// The poller of the target's own figures and version: SRS's API, or Janus's API and
    /// its admin API when the scenario names it (its URL was checked by `validate`; one
    /// that does not resolve is a warning, not a failed run). `streams` are the run's own
    /// streams on the server, counted apart from everyone else's.
    func serverStatsPoller(loop: EventLoop, target: ResolvedTarget, streams: Set<String>) -> ServerStatsPoller? {
        let scenario = loaded.scenario
        switch scenario.target.kind {
        case .srs:
            return .srs(loop: loop, target: target, streams: streams)
        case .janus:
            var admin: (target: ResolvedTarget, secret: String)?
            if let janus = scenario.target.janus, let url = janus.adminUrl {
                do {
                    admin = (try TargetResolver.resolve(url), scenario.target.janusAdminSecret)
                } catch {
                    warnings.append("target.janus.admin_url: \(error)")
                }
            }
            return .janus(loop: loop, target: target, admin: admin)
        case .builtinRoom, .room, .whip, .whep, .tcpP2P, .owt:
            return nil
        }
    }

    /// The built-in server started on a free loopback port, or a room server's URL checked
    /// for reachability before any peer starts.
    func startTarget(_ target: Target, loop: EventLoop) -> Result<(ResolvedTarget, RoomServerStream?), TargetError> {
        switch target.kind {
        case .builtinRoom:
            var configuration = RoomServerConfiguration()
            configuration.capacity = target.roomCapacity
            configuration.maxMessagesPerSecondPerAddress = target.room?.maxRatePerAddress
            configuration.events = RoomEventNames(otherJoined: target.otherJoinedEvent)
            do {
                let host = try RoomServerStream(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0), configuration: configuration)
                let endpoint = Endpoint(scheme: .http, host: "127.0.0.1", port: host.address.port)
                return .success((ResolvedTarget(address: host.address, endpoint: endpoint), host))
            } catch {
                return .failure(TargetError("cannot start the built-in room server: \(error)"))
            }
        case .tcpP2P:
            // Nobody listens before the run: the callers do, once started.
            return Result { () throws(TargetError) in (try TargetResolver.resolve(target.serverURL), nil) }
        case .room, .srs, .whip, .whep, .janus, .owt:
            do {
                let resolved = try TargetResolver.resolve(target.serverURL)
                try Reachability.check(resolved.address, loop: loop, timeout: .seconds(3))
                return .success((resolved, nil))
            } catch {
                return .failure(error)
            }
        }
    }
}
