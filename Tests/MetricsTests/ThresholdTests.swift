import Foundation
import Metrics
import WebRTCTestKit
import XCTest

final class ThresholdTests: XCTestCase {
    private func parseError(_ text: String) -> String {
        do {
            let threshold = try Threshold(parsing: text)
            return "parsed as \(threshold)"
        } catch {
            return error.description
        }
    }

    func testMetricsDocumentExamplesParse() throws {
        let examples: [(String, MetricAddress, Threshold.Comparison, Double)] = [
            ("setup_ms.p95 < 500", MetricAddress(.setupMs, .p95), .less, 500),
            ("loss_pct.max < 1", MetricAddress(.videoLossPct, .max), .less, 1),
            ("video.loss_pct.max < 1", MetricAddress(.videoLossPct, .max), .less, 1),
            ("audio.jitter_ms.p95<30", MetricAddress(.audioJitterMs, .p95), .less, 30),
            ("resolution_survival.min == 100", MetricAddress(.resolutionSurvival, .min), .equal, 100),
            ("failed_peers == 0", MetricAddress(.failedPeers), .equal, 0),
            ("jitter_ms.mean<=12.5", MetricAddress(.videoJitterMs, .mean), .lessOrEqual, 12.5),
            ("  fps.p50 >= 29.5 ", MetricAddress(.fps, .p50), .greaterOrEqual, 29.5),
            ("connected_peers > 99", MetricAddress(.connectedPeers), .greater, 99),
            ("nacks != 0", MetricAddress(.nacks), .notEqual, 0),
            ("psnr_db.p99 > -1e1", MetricAddress(.psnrDb, .p99), .greater, -10),
        ]
        for (text, address, comparison, limit) in examples {
            let threshold = try Threshold(parsing: text)
            XCTAssertEqual(threshold, Threshold(address, comparison, limit), text)
            XCTAssertEqual(try Threshold(parsing: threshold.description), threshold, text)
        }
        XCTAssertEqual(try Threshold(parsing: "setup_ms.p95<500").description, "setup_ms.p95 < 500")
    }

    func testParseErrorsNameTheBadTokenAndWhatIsAllowed() {
        let cases: [(String, String)] = [
            ("", "empty; expected '<metric> <operator> <number>'"),
            ("   ", "empty"),
            ("< 500", "expected a metric name, got '<'"),
            ("setup_m.p95 < 500", "unknown metric 'setup_m'; allowed: setup_ms, signaling_ms, ice_ms"),
            ("setup_ms < 500", "'setup_ms' is a distribution: add one of .p50 .p95 .p99 .min .max .mean"),
            ("setup_ms.p90 < 500", "unknown statistic '.p90' of 'setup_ms'; allowed: .p50 .p95 .p99 .min .max .mean"),
            ("setup_ms.p95.max < 500", "unknown statistic '.p95.max'"),
            ("video.loss_pc.max < 1", "unknown metric 'video.loss_pc'"),
            ("video.loss_pct < 1", "'video.loss_pct' is a distribution"),
            ("loss_pct.p90 < 1", "unknown statistic '.p90' of 'loss_pct'"),
            ("failed_peers.max == 0", "'failed_peers' is a count: use its bare name, without '.max'"),
            ("setup_ms.p95 500", "expected an operator (< <= > >= == !=) after 'setup_ms.p95', got '500'"),
            ("setup_ms.p95", "expected an operator (< <= > >= == !=) after 'setup_ms.p95', got the end"),
            ("setup_ms.p95 =< 500", "unknown operator '=<'; allowed: < <= > >= == !="),
            ("setup_ms.p95 = 500", "unknown operator '='"),
            ("setup_ms.p95 <", "expected a number after '<', got the end"),
            ("setup_ms.p95 < 5ms", "expected a number after '<', got '5ms'"),
            ("setup_ms.p95 < inf", "expected a number after '<', got 'inf'"),
            ("setup_ms.p95 < 500 ms", "unexpected 'ms' after '500'"),
        ]
        for (text, expected) in cases {
            let message = parseError(text)
            XCTAssertTrue(message.contains(expected), "'\(text)' gave: \(message)")
            XCTAssertTrue(message.hasPrefix("threshold '\(text)': "), message)
        }
    }

    func testEvaluationReportsPassAndTheMeasuredFigure() throws {
        var metrics = MetricSet()
        for setup in stride(from: 101.0, through: 600, by: 1) { metrics.record(setup, in: .setupMs) }  // 500 peers
        for loss in [0.0, 0.2, 0.9] { metrics.record(loss, in: .videoLossPct) }
        for survival in [100.0, 100, 100] { metrics.record(survival, in: .resolutionSurvival) }

        func check(_ text: String, passes: Bool, measured: Double?, file: StaticString = #filePath, line: UInt = #line) throws {
            let result = try Threshold(parsing: text).evaluate(metrics)
            XCTAssertEqual(result.passed, passes, text, file: file, line: line)
            if let measured, let value = result.measured {
                XCTAssertEqual(value, measured, accuracy: measured / 2048, text, file: file, line: line)
            } else {
                XCTAssertEqual(result.measured, measured, text, file: file, line: line)
            }
        }
        // p95 of 101...600 is the value of rank 475: 575.
        try check("setup_ms.p95 < 500", passes: false, measured: 575)
        try check("setup_ms.p95 < 600", passes: true, measured: 575)
        try check("setup_ms.p50 <= 351", passes: true, measured: 350)
        try check("setup_ms.min == 101", passes: true, measured: 101)
        try check("setup_ms.max >= 600", passes: true, measured: 600)
        try check("setup_ms.mean == 350.5", passes: true, measured: 350.5)
        try check("loss_pct.max < 1", passes: true, measured: 0.9)
        try check("loss_pct.max > 1", passes: false, measured: 0.9)
        try check("resolution_survival.min == 100", passes: true, measured: 100)
        try check("resolution_survival.min != 100", passes: false, measured: 100)
        // Counts never touched read 0; distributions with no values fail with no figure.
        try check("failed_peers == 0", passes: true, measured: 0)
        try check("ice_ms.p95 < 1000", passes: false, measured: nil)
        metrics.increment(.failedPeers, by: 2)
        try check("failed_peers == 0", passes: false, measured: 2)
        metrics.set(.connectedPeers, to: 498)
        try check("connected_peers >= 498", passes: true, measured: 498)
    }

    func testThresholdJSONIsItsExpression() throws {
        let thresholds = try JSONDecoder().decode([Threshold].self, from: Data(#"["setup_ms.p95 < 500", "failed_peers == 0"]"#.utf8))
        XCTAssertEqual(thresholds.map(\.description), ["setup_ms.p95 < 500", "failed_peers == 0"])
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(thresholds), as: UTF8.self), #"["setup_ms.p95 < 500","failed_peers == 0"]"#)
        XCTAssertThrowsError(try JSONDecoder().decode([Threshold].self, from: Data(#"["setup_ms < 500"]"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("is a distribution"), "\(error)")
        }
    }

    func testFuzzedExpressionsNeverCrashTheParser() {
        let seeds = ["setup_ms.p95 < 500", "failed_peers == 0", "resolution_survival.min == 100", "loss_pct.max<1e-3"]
        var fuzzer = Fuzzer(seeds: seeds.map { Array($0.utf8) }, seed: 17, maxLength: 64)
        var parsed = 0
        fuzzer.run(iterations: 100_000) { input in
            if let threshold = try? Threshold(parsing: String(decoding: input, as: UTF8.self)) {
                parsed += 1
                XCTAssertEqual(try? Threshold(parsing: threshold.description), threshold)
            }
        }
        XCTAssertGreaterThan(parsed, 0)
    }
}
