import Foundation
import Metrics
import RTCBase
import WebRTCTestKit
import XCTest

final class HistogramTests: XCTestCase {
    private let quantiles: [Double] = [0, 0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 100]

    /// Nearest rank: the value of rank ceil(q * n / 100), at least 1, in sorted order.
    private func nearestRank(_ sorted: [Double], _ q: Double) -> Double {
        let rank = max(1, Int((q * Double(sorted.count) / 100).rounded(.up)))
        return sorted[rank - 1]
    }

    /// Uniform, exponential and log-uniform over nine decades (1e-4 to 1e5).
    private func samples(_ n: Int, seed: UInt64) -> [[Double]] {
        var random = SeededGenerator(seed: seed)
        let uniform = (0..<n).map { _ in random.nextUnit() * 1000 }
        let exponential = (0..<n).map { _ in -log(1 - random.nextUnit()) * 150 }
        let wide = (0..<n).map { _ in pow(10, random.nextUnit() * 9 - 4) }
        return [uniform, exponential, wide]
    }

    func testPercentilesAreWithinAThousandthOfTheSortedArray() throws {
        var worst = 0.0
        for values in samples(100_000, seed: 1) {
            let histogram = Histogram(values)
            let sorted = values.sorted()
            for q in quantiles {
                let exact = nearestRank(sorted, q)
                let measured = try XCTUnwrap(histogram.percentile(q))
                let error = abs(measured - exact) / exact
                worst = max(worst, error)
                XCTAssertLessThanOrEqual(error, 0.001, "q \(q): \(measured) vs \(exact)")
            }
            XCTAssertEqual(histogram.percentile(0), sorted.first)
            XCTAssertEqual(histogram.percentile(100), sorted.last)
        }
        // Half a bucket of 1/1024 is the design bound.
        XCTAssertLessThanOrEqual(worst, 1.0 / 2048)
    }

    func testCountMinMaxAndMeanAreExact() throws {
        let values = samples(10_000, seed: 2)[1]
        let histogram = Histogram(values)
        XCTAssertEqual(histogram.count, 10_000)
        XCTAssertEqual(histogram.min, values.min())
        XCTAssertEqual(histogram.max, values.max())
        let mean = values.reduce(0, +) / Double(values.count)
        XCTAssertEqual(try XCTUnwrap(histogram.mean), mean, accuracy: mean * 1e-12)
    }

    func testMergedShardsEqualTheHistogramOfAllValues() throws {
        var random = SeededGenerator(seed: 3)
        for values in samples(60_000, seed: 4) {
            let whole = Histogram(values)
            // Eight shards of random sizes, as workers would record them.
            var cuts = (0..<7).map { _ in Int.random(in: 0...values.count, using: &random) }.sorted()
            cuts = [0] + cuts + [values.count]
            var merged = Histogram()
            for (from, to) in zip(cuts, cuts.dropFirst()) {
                merged.merge(Histogram(values[from..<to]))
            }
            XCTAssertEqual(merged, whole)
            XCTAssertEqual(merged.count, whole.count)
            for q in quantiles { XCTAssertEqual(merged.percentile(q), whole.percentile(q), "q \(q)") }
            let mean = try XCTUnwrap(whole.mean)
            XCTAssertEqual(try XCTUnwrap(merged.mean), mean, accuracy: mean * 1e-12)
        }
    }

    func testInvalidValuesAreCountedNotRecorded() {
        var histogram = Histogram([5, -1, .nan, .infinity, 7])
        XCTAssertEqual(histogram.count, 2)
        XCTAssertEqual(histogram.invalidCount, 3)
        XCTAssertEqual(histogram.min, 5)
        XCTAssertEqual(histogram.mean, 6)
        histogram.record(9, times: 3)
        XCTAssertEqual(histogram.count, 5)
        XCTAssertEqual(histogram.percentile(40) ?? 0, 7, accuracy: 7.0 / 2048)  // 5 7 9 9 9: rank 2
        XCTAssertEqual(histogram.percentile(60), 9)  // rank 3 reaches the top bucket, clamped to max
        XCTAssertNil(Histogram().percentile(50))
        XCTAssertNil(Histogram().mean)
    }

    func testZeroTinyAndHugeValuesKeepExactExtremes() {
        let histogram = Histogram([0, 0, 0, 1e-9, 2, 3e14])
        XCTAssertEqual(histogram.percentile(50), 0)  // ranks 1-4 lie below 2^-20
        XCTAssertEqual(histogram.min, 0)
        XCTAssertEqual(histogram.max, 3e14)
        XCTAssertEqual(histogram.percentile(100), 3e14)
        let two = histogram.percentile(80) ?? 0  // rank ceil(4.8) = 5
        XCTAssertEqual(two, 2, accuracy: 2.0 / 2048)
    }

    func testJSONIsCompactAndRoundTrips() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // 1.0 is 0x3FF0_0000_0000_0000: its key is the top 22 bits, 0x3FF << 10.
        XCTAssertEqual(
            String(decoding: try encoder.encode(Histogram([1.0, 1.0])), as: UTF8.self),
            #"{"buckets":[1047552,2],"max":1,"min":1,"sum":2}"#)
        XCTAssertEqual(String(decoding: try encoder.encode(Histogram()), as: UTF8.self), #"{"buckets":[],"sum":0}"#)

        for values in samples(20_000, seed: 5) {
            let histogram = Histogram(values + [0, -3])
            let data = try encoder.encode(histogram)
            XCTAssertEqual(try JSONDecoder().decode(Histogram.self, from: data), histogram)
        }
    }

    func testDamagedJSONFailsWithAMessage() {
        let cases = [
            (#"{"sum": 1, "buckets": [1047552]}"#, "pairs"),
            (#"{"sum": 1, "min": 1, "max": 1, "buckets": [1047552, -2]}"#, "counts be positive"),
            (#"{"sum": 1, "min": 1, "max": 1, "buckets": [5, 1]}"#, "outside"),
            (#"{"sum": 1, "min": 1, "max": 1, "buckets": [1047552, 1, 0, 1]}"#, "key steps must increase"),
            (#"{"sum": 2, "min": 2, "max": 1, "buckets": [1047552, 1]}"#, "0 <= min <= max"),
            (#"{"sum": 1, "buckets": [1047552, 1]}"#, "min"),
        ]
        for (json, expected) in cases {
            XCTAssertThrowsError(try JSONDecoder().decode(Histogram.self, from: Data(json.utf8)), json) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(json): \(error)")
            }
        }
    }

    func testFuzzedJSONNeverCrashesTheDecoder() throws {
        let valid = try JSONEncoder().encode(Histogram([0, 1.5, 200, 200, 3e4, 9e13]))
        var fuzzer = Fuzzer(seeds: [Array(valid), Array(#"{"sum":0,"buckets":[]}"#.utf8)], seed: 99, maxLength: 256)
        var decoded = 0
        fuzzer.run(iterations: 100_000) { input in
            if let histogram = try? JSONDecoder().decode(Histogram.self, from: Data(input)) {
                decoded += 1
                _ = histogram.percentile(99)
            }
        }
        XCTAssertGreaterThan(decoded, 0)
    }
}
