import Impairment
import RTCBase
import XCTest

final class ImpairedLinkLossTests: XCTestCase {
    func testRandomLossMatchesConfiguredRateWithinBinomialTolerance() {
        let n = 100_000
        for percent in [1.0, 5.0, 20.0] {
            var profile = ImpairmentProfile()
            profile.lossPct = percent
            let (deliveries, counters) = drive(profile, seed: 7, count: n)
            let p = percent / 100
            let tolerance = binomialTolerance(n: n, p: p)
            XCTAssertEqual(Double(counters.droppedByLoss), Double(n) * p, accuracy: tolerance, "loss \(percent) %")
            XCTAssertEqual(counters.sent, n)
            XCTAssertEqual(deliveries.count, n - counters.droppedByLoss)
            XCTAssertEqual(counters.delivered, deliveries.count)
        }
    }

    func testGilbertBurstsHaveConfiguredMeanLengthAndLossRate() throws {
        let n = 200_000
        var profile = ImpairmentProfile()
        profile.lossPct = 10
        profile.burstLength = 4
        let model = try GilbertElliott(lossRate: 0.1, meanBurstLength: 4)
        XCTAssertEqual(model.r, 0.25, accuracy: 1e-12)
        XCTAssertEqual(model.p, 0.1 * 0.25 / 0.9, accuracy: 1e-12)

        let (deliveries, counters) = drive(profile, seed: 11, count: n)
        let bursts = lossBursts(delivered: deliveries.map(\.index), count: n)

        // Loss rate: the Bad-state indicator is a two-state Markov chain with second
        // eigenvalue lambda = 1 - p - r; the variance of its mean is
        // pi (1 - pi) (1 + lambda) / (1 - lambda) / n.
        let pi = model.lossRate
        let lambda = 1 - model.p - model.r
        let rateError = (pi * (1 - pi) * (1 + lambda) / (1 - lambda) / Double(n)).squareRoot()
        XCTAssertEqual(Double(counters.droppedByLoss) / Double(n), 0.1, accuracy: sigmas * rateError)

        // Burst lengths are geometric with mean 1 / r and variance (1 - r) / r^2.
        let m = Double(bursts.count)
        let meanLength = Double(bursts.reduce(0, +)) / m
        XCTAssertEqual(meanLength, 4, accuracy: sigmas * ((1 - model.r) / (model.r * model.r) / m).squareRoot())
        // A share r of them are single losses.
        let singles = bursts.filter { $0 == 1 }.count
        XCTAssertEqual(Double(singles), m * model.r, accuracy: binomialTolerance(n: bursts.count, p: model.r))
    }

    func testRawGilbertElliottParametersGiveTheirLongRunLossRate() {
        let n = 200_000
        var profile = ImpairmentProfile()
        let model = GilbertElliott(p: 0.05, r: 0.4, h: 0.3, k: 0.98)
        profile.gilbertElliott = model
        let (_, counters) = drive(profile, seed: 3, count: n)

        // Loss indicators are correlated through the state: with per-state loss lG, lB,
        // Cov(L_i, L_j) = (lB - lG)^2 pi (1 - pi) lambda^|i-j|, summed geometrically.
        let pi = model.badStateShare
        let lossGood = 1 - model.k
        let lossBad = 1 - model.h
        let loss = model.lossRate
        XCTAssertEqual(loss, (1 - pi) * 0.02 + pi * 0.7, accuracy: 1e-12)
        let lambda = 1 - model.p - model.r
        let variance = loss * (1 - loss) + 2 * (lossBad - lossGood) * (lossBad - lossGood) * pi * (1 - pi) * lambda / (1 - lambda)
        XCTAssertEqual(
            Double(counters.droppedByLoss) / Double(n), loss, accuracy: sigmas * (variance / Double(n)).squareRoot())
    }

    func testDuplicationCopiesConfiguredShareAndDeliversBothCopies() {
        let n = 100_000
        var profile = ImpairmentProfile()
        profile.duplicatePct = 10
        let (deliveries, counters) = drive(profile, seed: 5, count: n)
        XCTAssertEqual(Double(counters.duplicated), Double(n) * 0.1, accuracy: binomialTolerance(n: n, p: 0.1))
        XCTAssertEqual(deliveries.count, n + counters.duplicated)
        var copies = [Int](repeating: 0, count: n)
        for delivery in deliveries { copies[delivery.index] += 1 }
        XCTAssertEqual(copies.filter { $0 == 2 }.count, counters.duplicated)
        XCTAssertEqual(copies.filter { $0 == 1 }.count, n - counters.duplicated)
    }

    func testLostPacketsDoNotDependOnJitterSettings() {
        var steady = ImpairmentProfile()
        steady.lossPct = 5
        var jittery = steady
        jittery.jitterMs = 30
        jittery.reorder = true
        let a = Set(drive(steady, seed: 9, count: 10_000).deliveries.map(\.index))
        let b = Set(drive(jittery, seed: 9, count: 10_000).deliveries.map(\.index))
        XCTAssertEqual(a, b)
        XCTAssertLessThan(a.count, 10_000)
    }

    func testImpossibleBurstLengthForLossRateIsRejectedNamingTheField() {
        var profile = ImpairmentProfile()
        profile.lossPct = 60
        profile.burstLength = 1.2  // 60 % loss needs bursts of 1.5 packets or more
        XCTAssertThrowsError(try profile.validate()) { error in
            XCTAssertEqual((error as? ImpairmentError)?.field, "burst_length")
        }
        profile.burstLength = 1.5
        XCTAssertNoThrow(try profile.validate())
    }

    /// Lengths of the runs of consecutive send indices missing from `delivered`.
    private func lossBursts(delivered: [Int], count: Int) -> [Int] {
        var arrived = [Bool](repeating: false, count: count)
        for index in delivered { arrived[index] = true }
        var bursts: [Int] = []
        var run = 0
        for flag in arrived {
            if flag {
                if run > 0 { bursts.append(run) }
                run = 0
            } else {
                run += 1
            }
        }
        if run > 0 { bursts.append(run) }
        return bursts
    }
}
