import Signaling
import WebRTCTestKit
import XCTest

final class SRSStatisticsTests: XCTestCase {
    private func body(_ fixture: String) throws -> String {
        let text = try Fixtures.text(fixture)
        return String(text[text.range(of: "\r\n\r\n")!.upperBound...])
    }

    func testSummariesGiveSRSsOwnCPUMemoryAndCounters() throws {
        let figures = try XCTUnwrap(SRSStatistics.summary(try body("srs/api-summaries.response.http")))
        XCTAssertEqual(figures["cpu_pct"], 0.03)
        XCTAssertEqual(figures["mem_mb"] ?? 0, 26_460 / 1024, accuracy: 1e-9)
        XCTAssertNotNil(figures["connections"])
        XCTAssertNotNil(figures["recv_bytes"])
    }

    func testStreamsCountStreamsAndTheirClients() throws {
        // Captured with one publisher and two players on livestream.
        let figures = try XCTUnwrap(SRSStatistics.streams(try body("srs/api-streams.response.http")))
        XCTAssertEqual(figures["clients"], 3)
        XCTAssertGreaterThanOrEqual(figures["streams"] ?? 0, 1)
    }

    func testTheRunsOwnStreamsAreCountedApart() throws {
        let body = try body("srs/api-streams.response.http")
        let ours = try XCTUnwrap(SRSStatistics.streams(body, own: ["livestream"]))
        XCTAssertEqual(ours["run_publishers"], 1)
        XCTAssertEqual(ours["run_players"], 2)
        let others = try XCTUnwrap(SRSStatistics.streams(body, own: ["another"]))
        XCTAssertEqual(others["run_publishers"], 0)
        XCTAssertEqual(others["run_players"], 0)
        XCTAssertNil(try XCTUnwrap(SRSStatistics.streams(body))["run_players"])
    }

    func testAnErrorOrForeignBodyGivesNothing() {
        XCTAssertNil(SRSStatistics.summary(#"{"code":400}"#))
        XCTAssertNil(SRSStatistics.streams("not json"))
        XCTAssertNil(SRSStatistics.summary(#"{"code":0,"data":{}}"#))
    }
}
