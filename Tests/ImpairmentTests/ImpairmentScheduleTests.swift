import Foundation
import Impairment
import RTCBase
import XCTest

final class ImpairmentScheduleTests: XCTestCase {
    func testScheduleSwitchesProfilesAtTheirExactInstants() throws {
        var blackout = ImpairmentProfile()
        blackout.lossPct = 100
        var slow = ImpairmentProfile()
        slow.delayMs = 50
        let start = Instant(nanoseconds: 5_000_000_000)
        let schedule = try ImpairmentSchedule([
            .init(offset: .seconds(10), profile: blackout),
            .init(offset: .seconds(20), profile: slow),
        ])
        var link = ImpairedLink<Int>(schedule: schedule, start: start, seed: 1)
        // One packet per millisecond from start - 1 s to start + 30 s.
        var delivered: [Int: Duration] = [:]
        for millisecond in -1_000..<30_000 {
            let now = start + .milliseconds(millisecond)
            link.send(millisecond, size: 100, now: now)
            while let (sent, at) = link.pollDelivery(now: now + .milliseconds(50)) {
                delivered[sent] = at - (start + .milliseconds(sent))
            }
        }
        XCTAssertEqual(link.counters.sent, 31_000)
        XCTAssertEqual(link.counters.droppedByLoss, 10_000)
        XCTAssertEqual(delivered.count, 21_000)
        XCTAssertEqual(delivered[-1_000], .zero)  // before the first change: clean
        XCTAssertEqual(delivered[9_999], .zero)
        XCTAssertNil(delivered[10_000])
        XCTAssertNil(delivered[19_999])
        XCTAssertEqual(delivered[20_000], .milliseconds(50))
        XCTAssertEqual(delivered[29_999], .milliseconds(50))
        XCTAssertEqual(link.profile, slow)
    }

    func testScheduleDecodesTheIssueExampleFromScenarioJSON() throws {
        let json = """
            [{"at_ms": 0, "profile": "clean"},
             {"at_ms": 10000, "profile": {"loss_pct": 5}},
             {"at_ms": 20000, "profile": {"rate_kbps": 300, "queue_packets": 30}}]
            """
        let schedule = try JSONDecoder().decode(ImpairmentSchedule.self, from: Data(json.utf8))
        XCTAssertEqual(schedule.changes.map(\.offset), [.zero, .seconds(10), .seconds(20)])
        XCTAssertEqual(schedule.profile(at: .seconds(5)), .clean)
        XCTAssertEqual(schedule.profile(at: .seconds(15)).lossPct, 5)
        XCTAssertEqual(schedule.profile(at: .seconds(25)).rateKbps, 300)
        XCTAssertEqual(schedule.profile(at: .seconds(25)).queuePackets, 30)
        let again = try JSONDecoder().decode(ImpairmentSchedule.self, from: JSONEncoder().encode(schedule))
        XCTAssertEqual(again, schedule)
    }

    func testScheduleOutOfOrderIsRejectedNamingTheEntry() {
        let json = #"[{"at_ms": 5000, "profile": "3g"}, {"at_ms": 1000, "profile": "clean"}]"#
        XCTAssertThrowsError(try JSONDecoder().decode(ImpairmentSchedule.self, from: Data(json.utf8))) { error in
            XCTAssertTrue("\(error)".contains("[1].at_ms"), "\(error)")
        }
    }

    func testSingleProfileDecodesAsAScheduleFromTheStart() throws {
        let schedule = try JSONDecoder().decode(ImpairmentSchedule.self, from: Data(#""congested""#.utf8))
        XCTAssertEqual(schedule.changes, [.init(offset: .zero, profile: .congested)])
    }

    func testSameSeedRepeatsExactlyAndAnotherSeedDoesNot() {
        var profile = ImpairmentProfile()
        profile.lossPct = 3
        profile.burstLength = 2
        profile.delayMs = 30
        profile.jitterMs = 15
        profile.jitterDistribution = .normal
        profile.reorder = true
        profile.duplicatePct = 2
        profile.rateKbps = 900
        profile.queuePackets = 10
        let first = drive(profile, seed: 42, count: 5_000)
        let second = drive(profile, seed: 42, count: 5_000)
        let other = drive(profile, seed: 43, count: 5_000)
        XCTAssertEqual(first.deliveries, second.deliveries)
        XCTAssertEqual(first.counters, second.counters)
        XCTAssertNotEqual(first.deliveries, other.deliveries)
        XCTAssertGreaterThan(first.counters.droppedByLoss, 0)
        XCTAssertGreaterThan(first.counters.droppedByQueue, 0)
        XCTAssertGreaterThan(first.counters.duplicated, 0)
    }
}
