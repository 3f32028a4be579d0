import EventLoop
import Net
import RTCBase
import Signaling

/// Samples SRS's own figures during a run (METRICS.md, "Server side"): its CPU, memory,
/// connections, streams, clients and throughput, on the run's time axis. A poll that
/// fails leaves the last figures in place; the run never waits for SRS's API.
final class SRSStatsPoller {
    private let loop: EventLoop
    private let target: ResolvedTarget
    private var requests: [HTTPClientHost] = []
    private var previousBytes: (at: Instant, recv: Double, send: Double)?
    /// The latest figures: cpu_pct, mem_mb, connections, streams, clients, recv_kbps, send_kbps.
    private(set) var latest: [String: Double] = [:]

    init(loop: EventLoop, target: ResolvedTarget) {
        self.loop = loop
        self.target = target
    }

    /// Asks SRS for its summaries and streams; answers update `latest` when they come.
    func poll() {
        requests.removeAll { $0.isFinished }
        request(SRSStatistics.summariesPath, query: nil) { [weak self] body in
            guard let self, var figures = SRSStatistics.summary(body) else { return }
            let now = self.loop.now()
            if let recv = figures.removeValue(forKey: "recv_bytes"), let send = figures.removeValue(forKey: "send_bytes") {
                if let previous = self.previousBytes, now > previous.at {
                    let seconds = (now - previous.at).milliseconds / 1000
                    figures["recv_kbps"] = max(0, recv - previous.recv) * 8 / 1000 / seconds
                    figures["send_kbps"] = max(0, send - previous.send) * 8 / 1000 / seconds
                }
                self.previousBytes = (now, recv, send)
            }
            self.latest.merge(figures) { $1 }
        }
        request(SRSStatistics.streamsPath, query: SRSStatistics.streamsQuery) { [weak self] body in
            guard let self, let figures = SRSStatistics.streams(body) else { return }
            self.latest.merge(figures) { $1 }
        }
    }

    private func request(_ path: String, query: String?, _ handle: @escaping (String) -> Void) {
        var endpoint = target.endpoint
        endpoint.path = path
        endpoint.query = query
        let request = HTTPRequest(method: .get, endpoint: endpoint)
        guard let host = try? HTTPClientHost(loop: loop, address: target.address, request: request, timeout: .seconds(2), completion: { event in
            if case .response(let response, _) = event, response.status == 200 { handle(response.bodyText) }
        }) else { return }
        requests.append(host)
    }
}
