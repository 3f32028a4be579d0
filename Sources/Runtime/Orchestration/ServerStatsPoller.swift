import EventLoop
import Net
import RTCBase
import Signaling

/// Samples a media server's own figures during a run (METRICS.md, "Server side") on the
/// run's time axis: SRS's CPU, memory, connections, streams, clients and throughput from
/// its HTTP API, or the sessions Janus holds from its admin API; and, once, the server's
/// name and version. A poll that fails leaves the last figures in place; the run never
/// waits for the server.
final class ServerStatsPoller {
    /// One request of a poll and how its answer becomes figures. A figure named
    /// `<x>_bytes` is a running byte counter: the poller reports it as `<x>_kbps`, the
    /// rate between two answers.
    struct Query {
        var target: ResolvedTarget
        var method: HTTPMethod = .get
        var path: String
        var query: String?
        var body: (() -> String)?
        var figures: (String) -> [String: Double]?
    }

    /// Where the server tells its version, and how to read it.
    struct VersionQuery {
        var target: ResolvedTarget
        var path: String
        var version: (String) -> String?
    }

    private let loop: EventLoop
    private let queries: [Query]
    private var versionQuery: VersionQuery?
    private var requests: [HTTPExchangeStream] = []
    private var previousCounters: [String: (at: Instant, value: Double)] = [:]
    /// The latest figures.
    private(set) var latest: [String: Double] = [:]
    /// What went wrong with the last poll that failed, in the server's words when it
    /// answered (a wrong Janus admin secret answers 200 with an error body).
    private(set) var lastProblem: String?
    /// The server's name and version ("SRS 7.0.18"), once it answered.
    private(set) var version: String?

    init(loop: EventLoop, queries: [Query], version: VersionQuery?) {
        self.loop = loop
        self.queries = queries
        versionQuery = version
    }

    /// SRS's summaries and streams (TARGETS.md), the run's own `streams` apart, and its version.
    static func srs(loop: EventLoop, target: ResolvedTarget, streams: Set<String>) -> ServerStatsPoller {
        ServerStatsPoller(loop: loop, queries: [
            Query(target: target, path: SRSStatistics.summariesPath, figures: SRSStatistics.summary),
            Query(target: target, path: SRSStatistics.streamsPath, query: SRSStatistics.streamsQuery, figures: { SRSStatistics.streams($0, own: streams) }),
        ], version: VersionQuery(target: target, path: ServerVersion.srsPath, version: ServerVersion.srs))
    }

    /// Janus's version from its API at `target` (the HTTP API only: a `ws://` target's port
    /// speaks WebSocket alone), and its session count from the admin API at `admin` (its
    /// own URL and port, with `secret`) when there is one.
    static func janus(loop: EventLoop, target: ResolvedTarget, admin: (target: ResolvedTarget, secret: String)?) -> ServerStatsPoller {
        var transaction = 0
        let sessions = admin.map { admin in
            Query(target: admin.target, method: .post, path: admin.target.endpoint.path, body: {
                transaction += 1
                return JanusAdmin.listSessionsBody(secret: admin.secret, transaction: "stats-\(transaction)")
            }, figures: JanusAdmin.sessions)
        }
        let overHTTP = target.endpoint.scheme == .http || target.endpoint.scheme == .https
        return ServerStatsPoller(loop: loop, queries: sessions.map { [$0] } ?? [],
                                 version: overHTTP ? VersionQuery(target: target, path: ServerVersion.janusPath(root: target.endpoint.path),
                                                                  version: ServerVersion.janus) : nil)
    }

    /// Sends every query (and the version query, the first time); answers update
    /// `latest` and `version` when they come.
    func poll() {
        requests.removeAll { $0.isFinished }
        if let versionQuery {
            self.versionQuery = nil
            send(versionQuery.target, .get, versionQuery.path, query: nil, body: nil) { [weak self] body in
                self?.version = versionQuery.version(body)
                return self?.version != nil
            }
        }
        for query in queries {
            send(query.target, query.method, query.path, query: query.query, body: query.body?()) { [weak self] body in
                guard let figures = query.figures(body) else { return false }
                self?.record(figures)
                return true
            }
        }
    }

    /// One request; `accept` takes a 200 answer's body and says whether it was usable.
    private func send(_ target: ResolvedTarget, _ method: HTTPMethod, _ path: String, query: String?, body: String?,
                      accept: @escaping (String) -> Bool) {
        var endpoint = target.endpoint
        endpoint.path = path
        endpoint.query = query
        let request = HTTPRequest(method: method, endpoint: endpoint, headers: body == nil ? [:] : ["Content-Type": "application/json"],
                                  body: Array((body ?? "").utf8))
        let host = HTTPExchangeStream(loop: loop, address: target.address, request: request, timeout: .seconds(2)) { [weak self] event in
            guard let self else { return }
            switch event {
            case .response(let response, _):
                if response.status == 200, accept(response.bodyText) { return }
                self.lastProblem = "\(endpoint) answered \(response.status): \(response.bodyText.prefix(300))"
            case .failed(let error):
                self.lastProblem = "\(endpoint): \(error)"
            }
        }
        requests.append(host)
    }

    private func record(_ figures: [String: Double]) {
        let now = loop.now()
        for (name, value) in figures {
            guard name.hasSuffix("_bytes") else {
                latest[name] = value
                continue
            }
            let rate = String(name.dropLast("_bytes".count)) + "_kbps"
            if let previous = previousCounters[name], now > previous.at {
                latest[rate] = max(0, value - previous.value) * 8 / 1000 / ((now - previous.at).milliseconds / 1000)
            }
            previousCounters[name] = (now, value)
        }
    }
}
