import EventLoop
import Net
import RTCBase
import Signaling

/// Samples a media server's own figures during a run (METRICS.md, "Server side") on the
/// run's time axis: SRS's CPU, memory, connections, streams, clients and throughput from
/// its HTTP API, or the sessions Janus holds from its admin API. A poll that fails leaves
/// the last figures in place; the run never waits for the server.
final class ServerStatsPoller {
    /// One request of a poll and how its answer becomes figures. A figure named
    /// `<x>_bytes` is a running byte counter: the poller reports it as `<x>_kbps`, the
    /// rate between two answers.
    struct Query {
        var method: HTTPMethod = .get
        var path: String
        var query: String?
        var body: (() -> String)?
        var figures: (String) -> [String: Double]?
    }

    private let loop: EventLoop
    private let target: ResolvedTarget
    private let queries: [Query]
    private var requests: [HTTPClientHost] = []
    private var previousCounters: [String: (at: Instant, value: Double)] = [:]
    /// The latest figures.
    private(set) var latest: [String: Double] = [:]
    /// What went wrong with the last poll that failed, in the server's words when it
    /// answered (a wrong Janus admin secret answers 200 with an error body).
    private(set) var lastProblem: String?

    init(loop: EventLoop, target: ResolvedTarget, queries: [Query]) {
        self.loop = loop
        self.target = target
        self.queries = queries
    }

    /// SRS's summaries and streams (TARGETS.md).
    static func srs(loop: EventLoop, target: ResolvedTarget) -> ServerStatsPoller {
        ServerStatsPoller(loop: loop, target: target, queries: [
            Query(path: SRSStatistics.summariesPath, figures: SRSStatistics.summary),
            Query(path: SRSStatistics.streamsPath, query: SRSStatistics.streamsQuery, figures: SRSStatistics.streams),
        ])
    }

    /// Janus's admin API at `admin` (its own URL and port), with `secret`.
    static func janusAdmin(loop: EventLoop, admin: ResolvedTarget, secret: String) -> ServerStatsPoller {
        var transaction = 0
        return ServerStatsPoller(loop: loop, target: admin, queries: [
            Query(method: .post, path: admin.endpoint.path, body: {
                transaction += 1
                return JanusAdmin.listSessionsBody(secret: secret, transaction: "stats-\(transaction)")
            }, figures: JanusAdmin.sessions),
        ])
    }

    /// Sends every query; answers update `latest` when they come.
    func poll() {
        requests.removeAll { $0.isFinished }
        for query in queries {
            var endpoint = target.endpoint
            endpoint.path = query.path
            endpoint.query = query.query
            let request = HTTPRequest(method: query.method, endpoint: endpoint, headers: query.body == nil ? [:] : ["Content-Type": "application/json"],
                                      body: Array((query.body?() ?? "").utf8))
            guard let host = try? HTTPClientHost(loop: loop, address: target.address, request: request, timeout: .seconds(2), completion: { [weak self] event in
                guard let self else { return }
                switch event {
                case .response(let response, _):
                    if response.status == 200, let figures = query.figures(response.bodyText) { return self.record(figures) }
                    self.lastProblem = "\(endpoint) answered \(response.status): \(response.bodyText.prefix(300))"
                case .failed(let error):
                    self.lastProblem = "\(endpoint): \(error)"
                }
            }) else { continue }
            requests.append(host)
        }
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
