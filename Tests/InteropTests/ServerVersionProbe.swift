import Net
import Signaling

/// A media server's name and version from its own HTTP API, for the interop matrix:
/// Janus's `/janus/info`, SRS's `/api/v1/versions` (parsed by `ServerVersion`). Nil when
/// the server does not answer within two seconds or answers something else.
enum ServerVersionProbe {
    /// "Janus 1.1.2" from the Janus on 127.0.0.1:`port` (API root `/janus`).
    static func janus(port: UInt16) -> String? {
        LoopbackHTTP.get(Endpoint(scheme: .http, host: "127.0.0.1", port: port), target: ServerVersion.janusPath(root: "/janus")).flatMap(ServerVersion.janus)
    }

    /// "SRS 7.0.18" from the SRS HTTP API at `api` (plain HTTP, an IP address).
    static func srs(_ api: Endpoint) -> String? {
        LoopbackHTTP.get(api, target: ServerVersion.srsPath).flatMap(ServerVersion.srs)
    }
}
