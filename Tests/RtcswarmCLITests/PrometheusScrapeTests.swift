import Foundation
import Report
import WebRTCTestKit
import XCTest

/// `run --metrics-listen` scraped by a real Prometheus (Debian's), started on 127.0.0.1:
/// after the run its API gives the report's peer count and packet and byte totals.
final class PrometheusScrapeTests: XCTestCase {
    /// The value of an instant PromQL query that returns one series, or nil.
    private func query(_ promql: String, port: UInt16) -> Double? {
        let encoded = promql.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        guard let answer = HTTPGet.fetch("http://127.0.0.1:\(port)/api/v1/query?query=\(encoded)"),
              let json = try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any],
              let result = (json["data"] as? [String: Any])?["result"] as? [[String: Any]], result.count == 1,
              let value = result[0]["value"] as? [Any], let text = value.last as? String else { return nil }
        return Double(text)
    }

    func testPromQLOverTheScrapedRunGivesTheReportsPeersAndTotals() throws {
        let prometheus = try ExternalTool.require("prometheus", installHint: "apt-get install prometheus")
        let metricsPort = try LoopbackPort.free(SOCK_STREAM), apiPort = try LoopbackPort.free(SOCK_STREAM)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prometheus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("prometheus.yml")
        try Data("""
        global: { scrape_interval: 500ms, scrape_timeout: 400ms }
        scrape_configs:
          - job_name: rtcswarm
            static_configs: [{ targets: ["127.0.0.1:\(metricsPort)"] }]

        """.utf8).write(to: config)
        let server = try ManagedProcess(prometheus, ["--config.file=\(config.path)", "--storage.tsdb.path=\(folder.appendingPathComponent("tsdb").path)",
                                                     "--web.listen-address=127.0.0.1:\(apiPort)"])
        defer { server.stop() }
        let ready = Date().addingTimeInterval(20)
        while HTTPGet.fetch("http://127.0.0.1:\(apiPort)/-/ready")?.status != 200 {
            guard Date() < ready else { return XCTFail("prometheus did not get ready: \(server.text)") }
            Thread.sleep(forTimeInterval: 0.2)
        }
        // Prometheus hands new targets to its scrapers up to 5 s after it starts: wait for ours.
        while HTTPGet.fetch("http://127.0.0.1:\(apiPort)/api/v1/targets")?.body.contains("\"scrapeUrl\":\"http://127.0.0.1:\(metricsPort)/metrics\"") != true {
            guard Date() < ready else { return XCTFail("prometheus never listed the run as a target: \(server.text)") }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let out = folder.appendingPathComponent("report").path
        let run = try ExternalTool.run(ShardRunTests.binary, [
            "run", "Scenarios/quickstart.json5", "--set", "duration_s=4", "--set", "groups[0].count=3",
            "--set", "groups[0].media.video.resolution=160x90", "--workers", "1",
            "--metrics-listen", "127.0.0.1:\(metricsPort)", "--metrics-linger", "5", "--out", out,
        ], in: ExternalTool.repositoryRoot)
        XCTAssertTrue([0, 5].contains(run.status), run.output)
        let report = try ReportWriter.read(out)
        let streams = report.cells[0].peers.flatMap(\.streams)
        let expected: [(String, Double)] = [
            ("rtcswarm_peers_ended_total", Double(report.cells[0].peers.count)),
            ("rtcswarm_rtp_packets_expected_total", Double(streams.reduce(0) { $0 + $1.packetsExpected })),
            ("rtcswarm_video_frames_received_total", Double(streams.filter { $0.kind == "video" }.reduce(0) { $0 + $1.framesReceived })),
            ("rtcswarm_udp_sent_bytes_total", Double(report.workers.reduce(0) { $0 + ($1.udpBytesSent ?? 0) })),
            ("rtcswarm_plis_sent_total", Double(streams.reduce(0) { $0 + $1.plis })),
            ("rtcswarm_video_freezes_total", Double(streams.filter { $0.kind == "video" }.reduce(0) { $0 + $1.freezeCount })),
            ("rtcswarm_setup_phase_seconds_count{phase=\"ice\",group=\"calls\"}",
             Double(report.cells[0].peers.filter { $0.phases["ice_ms"] != nil }.count)),
        ]
        XCTAssertEqual(expected[0].1, 6)
        XCTAssertGreaterThan(expected[1].1, 1000)
        // The endpoint closed after the final scrape: Prometheus marked the series stale, and
        // last_over_time reads the final scrape's value.
        for (metric, value) in expected {
            let promql = "sum(last_over_time(\(metric)[1m]))"
            var measured: Double?
            let deadline = Date().addingTimeInterval(5)
            repeat {
                measured = query(promql, port: apiPort)
                if measured != value { Thread.sleep(forTimeInterval: 0.3) }
            } while measured != value && Date() < deadline
            XCTAssertEqual(measured, value, promql)
        }
        // Scraped while the calls went on: all six peers connected at once.
        XCTAssertEqual(query("max(max_over_time(rtcswarm_peers{state=\"connected\"}[1m]))", port: apiPort), 6)
        // The built-in room server's own figures beside them: the six peers' connections.
        XCTAssertEqual(query("max(max_over_time(rtcswarm_server_connections[1m]))", port: apiPort), 6)
        XCTAssertGreaterThan(query("max(last_over_time(rtcswarm_worker_cpu_seconds_total[1m]))", port: apiPort) ?? 0, 0)
    }
}
