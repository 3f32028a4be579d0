import RTCBase
import WebRTCTestKit
import XCTest

final class FuzzerTests: XCTestCase {
    func testSameSeedGivesSameInputs() {
        var first = Fuzzer(seeds: [[1, 2, 3, 4]], seed: 7)
        var second = Fuzzer(seeds: [[1, 2, 3, 4]], seed: 7)
        var a: [[UInt8]] = []
        var b: [[UInt8]] = []
        first.run(iterations: 200) { a.append($0) }
        second.run(iterations: 200) { b.append($0) }
        XCTAssertEqual(a, b)
    }

    func testInputsRespectMaxLengthAndVary() {
        var fuzzer = Fuzzer(seeds: [Array(repeating: 7, count: 100)], seed: 1, maxLength: 128)
        var distinct = Set<[UInt8]>()
        fuzzer.run(iterations: 1_000) { input in
            XCTAssertLessThanOrEqual(input.count, 128)
            distinct.insert(input)
        }
        XCTAssertGreaterThan(distinct.count, 900)
    }

    func testSeededGeneratorUnitIntervalIsUniform() {
        var generator = SeededGenerator(seed: 42)
        let samples = (0..<100_000).map { _ in generator.nextUnit() }
        XCTAssertTrue(samples.allSatisfy { $0 >= 0 && $0 < 1 })
        let mean = samples.reduce(0, +) / Double(samples.count)
        // Standard error of the mean of U(0,1) is sqrt(1/12/n) = 0.00091; allow 5 sigma.
        XCTAssertEqual(mean, 0.5, accuracy: 0.0046)
    }
}
