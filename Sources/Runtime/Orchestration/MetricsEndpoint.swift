import EventLoop
import Net
import Report
import RTCBase

/// `--metrics-listen`: an HTTP server on the coordinator's loop that answers every GET
/// with the run's `LiveFigures` as OpenMetrics text, for Prometheus to scrape while the
/// run goes on. Each connection is an `HTTPServerConnection` driven here.
final class MetricsEndpoint {
    static let contentType = "application/openmetrics-text; version=1.0.0; charset=utf-8"

    private let loop: EventLoop
    private let listener: TCPListener
    private var connections: [ObjectIdentifier: (TCPConnection, HTTPServerConnection)] = [:]
    /// What a scrape reads, at the time of the scrape.
    var figures: () -> LiveFigures
    /// GET requests answered so far.
    private(set) var scrapes = 0

    init(loop: EventLoop, address: SocketAddress, figures: @escaping () -> LiveFigures) throws {
        self.loop = loop
        self.figures = figures
        listener = try TCPListener(loop: loop, address: address)
        listener.onAccept = { [weak self] connection in self?.accept(connection) }
    }

    var address: SocketAddress { listener.localAddress }

    private func accept(_ connection: TCPConnection) {
        let id = ObjectIdentifier(connection)
        connections[id] = (connection, HTTPServerConnection(now: loop.now()))
        connection.onRead = { [weak self] bytes in
            guard let self, var http = self.connections[id]?.1 else { return }
            http.handle(bytes, now: self.loop.now())
            self.drive(&http, connection)
            self.connections[id]?.1 = http
        }
        connection.onClose = { [weak self] _ in self?.connections[id] = nil }
    }

    /// Answers what the connection reported, sends what it queued, and closes when it is done.
    private func drive(_ http: inout HTTPServerConnection, _ connection: TCPConnection) {
        while let event = http.pollEvent() {
            guard case .request(let request) = event else { continue }
            if request.method == .get { scrapes += 1 }
            let response = request.method == .get
                ? HTTPResponse(status: 200, headers: ["Content-Type": Self.contentType], body: Array(figures().openMetrics.utf8))
                : HTTPResponse(status: 405, headers: ["Allow": "GET"])
            _ = http.respond(response, now: loop.now())
        }
        while let bytes = http.pollTransmit() { connection.write(bytes) }
        if http.isClosed { connection.closeAfterWriting() }
    }

    /// Runs the loop until one more scrape has read the figures as they are now, or
    /// `seconds` have passed (0: not at all), so the last figures reach Prometheus.
    func serveOneMoreScrape(within seconds: Double) {
        guard seconds > 0 else { return }
        let seen = scrapes
        loop.run(until: { self.scrapes > seen }, timeout: .milliseconds(Int64(seconds * 1000)))
    }

    func close() {
        listener.close()
        connections.values.forEach { $0.0.close() }
        connections = [:]
    }
}
