import EventLoop
import Foundation
import Net
import RTCBase
import Runtime
import Signaling

/// A media server's name and version from its own HTTP API, for the interop matrix:
/// Janus's `/janus/info`, SRS's `/api/v1/versions` (parsed by `ServerVersion`). Nil when
/// the server does not answer within two seconds or answers something else.
enum ServerVersionProbe {
    /// "Janus 1.1.2" from the Janus on 127.0.0.1:`port` (API root `/janus`).
    static func janus(port: UInt16) -> String? {
        get(Endpoint(scheme: .http, host: "127.0.0.1", port: port), target: ServerVersion.janusPath(root: "/janus")).flatMap(ServerVersion.janus)
    }

    /// "SRS 7.0.18" from the SRS HTTP API at `api` (plain HTTP, an IP address).
    static func srs(_ api: Endpoint) -> String? {
        get(api, target: ServerVersion.srsPath).flatMap(ServerVersion.srs)
    }

    private static func get(_ endpoint: Endpoint, target: String) -> String? {
        guard let address = SocketAddress(host: endpoint.host, port: endpoint.port), let loop = try? EventLoop() else { return nil }
        var request = HTTPRequest(method: .get, endpoint: endpoint)
        request.target = target
        var result: HTTPClientEvent?
        guard let host = try? HTTPClientHost(loop: loop, address: address, request: request, timeout: .seconds(2), completion: { result = $0 }) else {
            return nil
        }
        _ = loop.run(until: { result != nil }, timeout: .seconds(3))
        withExtendedLifetime(host) {}
        guard case .response(let response, _)? = result, response.status == 200 else { return nil }
        return response.bodyText
    }
}
