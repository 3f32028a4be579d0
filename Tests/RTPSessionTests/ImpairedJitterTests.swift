import Impairment
import RTCBase
@testable import RTPSession
import WebRTCTestKit
import XCTest

/// Issue 7: jitter injected by the impairment layer, with a known distribution, gives the
/// RFC 3550 jitter the formula predicts; the stream's figure also equals an independent
/// computation over the same arrival times.
final class ImpairedJitterTests: XCTestCase {
    /// Sends `count` packets 100 ms apart (48 kHz timestamps) through a link with this
    /// jitter and returns (stream's mean jitter ms, independently computed final jitter,
    /// stream's final jitter), in timestamp units for the last two.
    private func measure(_ distribution: JitterDistribution, jitterMs: Double, count: Int = 10_000) -> (mean: Double, independent: Double, stream: Double) {
        var profile = ImpairmentProfile()
        profile.delayMs = 100
        profile.jitterMs = jitterMs
        profile.jitterDistribution = distribution
        // Each packet keeps its own delay, so transit times are independent; packets 100 ms
        // apart never swap under these spreads, so arrival-adjacent packets are send-adjacent.
        profile.reorder = true
        var link = ImpairedLink<Int>(profile: profile, seed: 1234)
        let start = Instant(nanoseconds: 1_000_000_000)
        for index in 0..<count {
            link.send(index, size: 200, now: start + .milliseconds(Int64(index) * 100))
        }
        var receiver = ReceiveStream(configuration: .init(ssrc: 9, clockRate: 48_000, nack: false))
        var oracle = RFC3550JitterOracle(clockRate: 48_000)
        let end = start + .seconds(Int64(count) / 10 + 60)
        while let (index, deliverAt) = link.pollDelivery(now: end) {
            let timestamp = UInt32(index * 4800)
            _ = receiver.receive(sequenceNumber: UInt16(truncatingIfNeeded: index), timestamp: timestamp, now: deliverAt)
            oracle.add(arrivalSeconds: Double(deliverAt.nanoseconds) / 1e9, timestamp: Double(timestamp))
        }
        let statistics = receiver.snapshot(now: end)
        return (statistics.jitterMeanMs, oracle.jitter, statistics.jitter)
    }

    /// Four standard errors of a mean of `count` |D| values with this spread, doubled in
    /// variance because neighbouring differences share a packet.
    private func tolerance(sd: Double, count: Int = 10_000) -> Double {
        4 * sd * 2.0.squareRoot() / Double(count).squareRoot()
    }

    func testUniformJitterGivesTwoThirdsOfItsHalfWidth() {
        // Transit uniform on d +- J, independent per packet: E|D| = E|X - Y| = 2J/3.
        let (mean, independent, stream) = measure(.uniform, jitterMs: 30)
        XCTAssertEqual(stream, independent, accuracy: 1e-6, "the same arrivals give the same RFC 3550 jitter")
        print("uniform +-30 ms: mean RFC 3550 jitter \(mean) ms, predicted 20 ms")
        // sd of |X - Y| is J * sqrt(2) / 3; neighbouring |D| share a packet (factor sqrt 2).
        XCTAssertEqual(mean, 20, accuracy: tolerance(sd: 30 * 2.0.squareRoot() / 3))
    }

    func testNormalJitterGivesTwoSigmaOverRootPi() {
        // Transit normal with sd s: D = X - Y is normal with sd s*sqrt(2), E|D| = 2s/sqrt(pi).
        let (mean, independent, stream) = measure(.normal, jitterMs: 10)
        XCTAssertEqual(stream, independent, accuracy: 1e-6)
        let predicted = 2 * 10 / Double.pi.squareRoot()
        print("normal sd 10 ms: mean RFC 3550 jitter \(mean) ms, predicted \(predicted) ms")
        // |D| is half-normal with scale 10 * sqrt(2): sd = 10 * sqrt(2) * sqrt(1 - 2/pi).
        XCTAssertEqual(mean, predicted, accuracy: tolerance(sd: 10 * 2.0.squareRoot() * (1 - 2 / Double.pi).squareRoot()))
    }
}
