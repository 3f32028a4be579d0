import Foundation
import Metrics
import RTCBase
import XCTest

final class MetricSetTests: XCTestCase {
    /// One worker's figures: setup times, per-stream loss, failures, connected peers.
    private func worker(_ seed: UInt64, peers: Int) -> MetricSet {
        var random = SeededGenerator(seed: seed)
        var metrics = MetricSet()
        for _ in 0..<peers {
            metrics.record(200 + random.nextUnit() * 800, in: .setupMs)
            metrics.record(random.nextUnit() * 3, in: .videoLossPct)
        }
        metrics.increment(.failedPeers, by: Int(seed % 3))
        metrics.set(.connectedPeers, to: Double(peers))
        return metrics
    }

    func testMergedWorkersEqualOneSetOfAllFigures() throws {
        let workers = (1...4).map { worker($0, peers: 250 * Int($0)) }
        var merged = MetricSet()
        for set in workers { merged.merge(set) }

        var expected = MetricSet()
        var setup = Histogram()
        var loss = Histogram()
        for set in workers {
            setup.merge(try XCTUnwrap(set.histograms[.setupMs]))
            loss.merge(try XCTUnwrap(set.histograms[.videoLossPct]))
        }
        expected.merge(setup, into: .setupMs)
        expected.merge(loss, into: .videoLossPct)
        expected.increment(.failedPeers, by: 1 + 2 + 0 + 1)
        expected.set(.connectedPeers, to: 250 + 500 + 750 + 1000)
        XCTAssertEqual(merged, expected)
        XCTAssertEqual(merged.value(at: MetricAddress(.setupMs, .p95)), setup.percentile(95))
        XCTAssertEqual(merged.value(at: MetricAddress(.failedPeers)), 4)
        XCTAssertEqual(merged.value(at: MetricAddress(.connectedPeers)), 2_500)
        XCTAssertEqual(merged.histograms[.setupMs]?.count, 2_500)
    }

    func testAddressesResolveEveryStatistic() throws {
        var metrics = MetricSet()
        for value in [10.0, 20, 30, 40] { metrics.record(value, in: .rttMs) }
        let expected: [Statistic: Double] = [.min: 10, .max: 40, .mean: 25, .p50: 20, .p95: 40, .p99: 40]
        for (statistic, value) in expected {
            let measured = try XCTUnwrap(metrics.value(at: MetricAddress(.rttMs, statistic)))
            XCTAssertEqual(measured, value, accuracy: value / 2048, "\(statistic)")
        }
        XCTAssertNil(metrics.value(at: MetricAddress(.videoJitterMs, .max)))
        XCTAssertEqual(metrics.value(at: MetricAddress(.socketDrops)), 0)
    }

    func testEveryNameIsAddressableByItsKind() throws {
        for name in MetricName.allCases {
            switch name.kind {
            case .distribution:
                XCTAssertEqual(try MetricAddress(parsing: "\(name.rawValue).p99"), MetricAddress(name, .p99))
            case .counter, .gauge:
                XCTAssertEqual(try MetricAddress(parsing: name.rawValue), MetricAddress(name))
            }
        }
        XCTAssertEqual(MetricName.allCases.count, 72)  // the list in docs/metrics.md
    }

    func testJSONIsKeyedByMetricNameAndRoundTrips() throws {
        var metrics = worker(7, peers: 100)
        metrics.increment(.nacks, by: 12)
        let data = try JSONEncoder().encode(metrics)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["setup_ms", "video.loss_pct", "failed_peers", "connected_peers", "nacks"])
        XCTAssertEqual(object["nacks"] as? Int, 12)
        XCTAssertEqual(try JSONDecoder().decode(MetricSet.self, from: data), metrics)

        XCTAssertThrowsError(try JSONDecoder().decode(MetricSet.self, from: Data(#"{"setup": 3}"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("unknown metric 'setup'; allowed: setup_ms"), "\(error)")
        }
        XCTAssertThrowsError(try JSONDecoder().decode(MetricSet.self, from: Data(#"{"nacks": -1}"#.utf8)))
    }

    func testCounterGaugeAndRateMergeExactly() {
        var counter = Counter(3)
        counter.increment(by: -5)  // a counter never goes back
        counter.increment()
        counter.merge(Counter(10))
        XCTAssertEqual(counter.value, 14)

        var gauge = Gauge()
        gauge.add(5)
        gauge.add(-2)
        gauge.merge(Gauge(7))
        XCTAssertEqual(gauge.value, 10)
    }
}
