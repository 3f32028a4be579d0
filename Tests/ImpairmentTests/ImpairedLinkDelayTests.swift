import Impairment
import RTCBase
import XCTest

final class ImpairedLinkDelayTests: XCTestCase {
    func testFixedDelayIsExactForEveryPacketInSendOrder() {
        var profile = ImpairmentProfile()
        profile.delayMs = 100
        let (deliveries, counters) = drive(profile, count: 5_000, interval: .microseconds(300))
        XCTAssertEqual(deliveries.count, 5_000)
        XCTAssertEqual(counters.delivered, 5_000)
        XCTAssertTrue(deliveries.allSatisfy { $0.deliverAt - $0.sentAt == .milliseconds(100) })
        XCTAssertEqual(deliveries.map(\.index), Array(0..<5_000))
    }

    func testUniformJitterHasMeanDelayAndStandardDeviationJitterOverRootThree() {
        let n = 50_000
        let delay = 100.0
        let jitter = 20.0
        var profile = ImpairmentProfile()
        profile.delayMs = delay
        profile.jitterMs = jitter
        profile.reorder = true
        let delays = drive(profile, seed: 21, count: n).deliveries.map(\.delayMs)
        let (mean, deviation) = meanAndStandardDeviation(delays)

        // Uniform on [-J, J]: sigma = J / sqrt(3), fourth central moment J^4 / 5; the
        // standard error of s is sqrt((mu4 - sigma^4) / n) / (2 sigma).
        let sigma = jitter / 3.0.squareRoot()
        let mu4 = pow(jitter, 4) / 5
        XCTAssertEqual(mean, delay, accuracy: sigmas * sigma / Double(n).squareRoot())
        XCTAssertEqual(
            deviation, sigma, accuracy: sigmas * ((mu4 - pow(sigma, 4)) / Double(n)).squareRoot() / (2 * sigma))
        XCTAssertGreaterThanOrEqual(delays.min() ?? 0, delay - jitter)
        XCTAssertLessThanOrEqual(delays.max() ?? 0, delay + jitter)
    }

    func testNormalJitterHasMeanDelayStandardDeviationJitterAndTwoThirdsWithinOneSigma() {
        let n = 50_000
        let delay = 100.0
        let jitter = 10.0
        var profile = ImpairmentProfile()
        profile.delayMs = delay
        profile.jitterMs = jitter
        profile.jitterDistribution = .normal
        profile.reorder = true
        let delays = drive(profile, seed: 22, count: n).deliveries.map(\.delayMs)
        let (mean, deviation) = meanAndStandardDeviation(delays)

        // Normal: the standard error of s is sigma / sqrt(2 n).
        XCTAssertEqual(mean, delay, accuracy: sigmas * jitter / Double(n).squareRoot())
        XCTAssertEqual(deviation, jitter, accuracy: sigmas * jitter / (2 * Double(n)).squareRoot())
        let inside = delays.filter { abs($0 - delay) <= jitter }.count
        let share = 0.682_689_492  // P(|Z| <= 1)
        XCTAssertEqual(Double(inside), Double(n) * share, accuracy: binomialTolerance(n: n, p: share))
    }

    func testJitterWithoutReorderKeepsSendOrder() {
        var profile = ImpairmentProfile()
        profile.delayMs = 50
        profile.jitterMs = 20
        let deliveries = drive(profile, seed: 23, count: 20_000, interval: .milliseconds(5)).deliveries
        XCTAssertEqual(deliveries.map(\.index), Array(0..<20_000))
        XCTAssertTrue(zip(deliveries, deliveries.dropFirst()).allSatisfy { $0.deliverAt <= $1.deliverAt })
        XCTAssertTrue(deliveries.allSatisfy { $0.delayMs >= 30 })
    }

    func testJitterWithReorderSwapsNeighboursAsOftenAsTheDistributionPredicts() {
        let n = 20_000
        let jitter = 20.0
        let spacing = 5.0
        var profile = ImpairmentProfile()
        profile.delayMs = 50
        profile.jitterMs = jitter
        profile.reorder = true
        let deliveries = drive(profile, seed: 24, count: n, interval: .milliseconds(5)).deliveries
        XCTAssertTrue(zip(deliveries, deliveries.dropFirst()).allSatisfy { $0.deliverAt <= $1.deliverAt })

        var deliverAt = [Instant](repeating: .zero, count: n)
        for delivery in deliveries { deliverAt[delivery.index] = delivery.deliverAt }
        let swaps = zip(deliverAt, deliverAt.dropFirst()).filter { $0 > $1 }.count

        // Packet i+1 arrives first when X_i - X_{i+1} > spacing; the difference of two
        // uniforms on [-J, J] is triangular, so P = (2J - spacing)^2 / (8 J^2). Neighbouring
        // pairs share a packet (1-dependent), which at most triples the variance.
        let p = (2 * jitter - spacing) * (2 * jitter - spacing) / (8 * jitter * jitter)
        XCTAssertEqual(Double(swaps), Double(n - 1) * p, accuracy: sigmas * (3 * Double(n - 1) * p * (1 - p)).squareRoot())
    }

    func testUnvalidatedProfileIsClampedInsteadOfTrapping() {
        var profile = ImpairmentProfile()
        profile.delayMs = -5
        profile.jitterMs = 1e300
        profile.rateKbps = 0
        XCTAssertThrowsError(try profile.validate())
        let deliveries = drive(profile, count: 10).deliveries
        XCTAssertEqual(deliveries.count, 10)
        XCTAssertTrue(deliveries.allSatisfy { $0.deliverAt >= $0.sentAt })
    }
}
