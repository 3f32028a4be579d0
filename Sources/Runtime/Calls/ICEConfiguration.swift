import ICE
import PeerCore
import RTCBase
import Scenario

/// A group's `ice` settings in the form a `Peer` takes: STUN and TURN servers as
/// addresses with credentials, relay-only and the ICE profile.
public struct ICEConfiguration: Sendable {
    public var servers: [IceServer] = []
    public var relayOnly = false
    public var profile: IceProfile = .libwebrtc

    public init() {}

    /// Resolves `stun:host:port` and `turn:host:port?transport=udp` (port 3478 by default).
    init(_ group: PeerGroup, groupIndex: Int) throws(TargetError) {
        relayOnly = group.relayOnly
        profile = switch group.iceProfile {
        case .libwebrtc: .libwebrtc
        case .rfc8445: .rfc8445
        }
        for (serverIndex, server) in group.iceServers.enumerated() {
            for (urlIndex, url) in server.urls.enumerated() {
                let field = "groups[\(groupIndex)].ice.servers[\(serverIndex)].urls[\(urlIndex)]"
                let scheme = url.prefix { $0 != ":" }
                let rest = url.dropFirst(scheme.count + 1).prefix { $0 != "?" }
                guard !rest.isEmpty else { throw TargetError("\(field): \"\(url)\" names no host") }
                let hasPort = rest.last != "]" && rest.contains(":") && !rest.hasPrefix("[") || rest.contains("]:")
                let address: SocketAddress
                do {
                    address = try TargetResolver.resolve("http://\(rest)\(hasPort ? "" : ":3478")").address
                } catch {
                    throw TargetError("\(field): \(error)")
                }
                switch scheme {
                case "stun":
                    servers.append(.stun(address))
                case "turn":
                    servers.append(.turn(address, username: server.user, password: server.password))
                default:
                    throw TargetError("\(field): \"\(url)\": only stun: and turn: (UDP) are supported")
                }
            }
        }
    }
}
