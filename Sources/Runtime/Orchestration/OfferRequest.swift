import Net
import RTP
import Scenario
import Signaling

/// How a publisher or player of an SRS, WHIP or WHEP target sends its offer: SRS's own
/// JSON API (PROTOCOLS.md 1) or WHIP/WHEP (RFC 9725), with the URL, query and token the
/// target asks for. rtcswarm's peers run it as their call setup; the browser cohort's page
/// sends the same request itself (`BrowserCohort.configuration`).
enum OfferRequest {
    case srsAPI(SRSCallSetup)
    case whip(WHIPCallSetup)

    /// The request of a `role` peer of `stream` on `target` (at `endpoint`), for each offer
    /// it makes. A `whep_url` that does not resolve fails here, before any offer.
    static func maker(target: Target, role: PeerGroup.Role, stream: String, endpoint: Endpoint,
                      video: Codec?) throws(TargetError) -> (_ offer: String) -> OfferRequest {
        switch target.kind {
        case .srs:
            let (app, eip, codec) = (target.srsApp, target.srsEip, srsCodec(video))
            if target.srs?.api == .whipWhep {
                let kind: WHIPCallSetup.Kind = role == .publisher ? .whip : .whep
                return { .whip(.srs(kind: kind, api: endpoint, app: app, stream: stream, offer: $0, eip: eip, codec: codec)) }
            }
            let streamURL = SRSCallSetup.streamURL(api: endpoint, app: app, stream: stream)
            let mode: SRSCallSetup.Mode = role == .publisher ? .publish : .play
            return { .srsAPI(SRSCallSetup(api: endpoint, streamURL: streamURL, mode: mode, offer: $0, eip: eip, codec: codec)) }
        case .whip, .whep:
            let (kind, url) = try WorkerRun.whipRequest(target: target, role: role, stream: stream, endpoint: endpoint)
            return { .whip(WHIPCallSetup(kind: kind, endpoint: url, offer: $0, token: target.bearerToken)) }
        case .janus, .owt, .builtinRoom, .room, .tcpP2P:
            throw TargetError("a \(target.kind.rawValue) target takes no SRS, WHIP or WHEP offer")
        }
    }

    /// SRS's `?codec=` for a video codec: SRS takes H.265 and AV1 only when asked
    /// (PROTOCOLS.md 1); nil for the others.
    private static func srsCodec(_ video: Codec?) -> String? {
        switch video {
        case .h265: "hevc"
        case .av1: "av1"
        default: nil
        }
    }
}
