@testable import Runtime
import Net
import Scenario
import Signaling
import XCTest

/// Where peers of a `whip` target send their offers: publishers to `url` with WHIP,
/// players to `whep_url` with WHEP, `{stream}` replaced by each peer's stream name.
final class WHIPTargetURLTests: XCTestCase {
    private func target(_ json: String, role: String = "publisher") throws -> Target {
        try ScenarioLoader.load(text: """
            { name: "t", duration_s: 5, target: \(json),
              groups: [{ role: "\(role)", count: 1 }] }
            """).scenario.target
    }

    func testPublishersUseWHIPAndPlayersWHEPWithTheirStreamInPathAndQuery() throws {
        let target = try target("{ kind: 'whip', url: 'http://127.0.0.1:8080/whip/{stream}', whep_url: 'http://127.0.0.1:8080/whep/{stream}?s={stream}' }")
        let endpoint = try TargetResolver.resolve(try XCTUnwrap(target.url)).endpoint
        let (publishKind, publishURL) = try WorkerRun.whipRequest(target: target, role: .publisher, stream: "clean", endpoint: endpoint)
        XCTAssertEqual(publishKind, .whip)
        XCTAssertEqual(publishURL.path, "/whip/clean")
        let (playKind, playURL) = try WorkerRun.whipRequest(target: target, role: .player, stream: "a b", endpoint: endpoint)
        XCTAssertEqual(playKind, .whep)
        XCTAssertEqual(playURL.path, "/whep/a%20b")
        XCTAssertEqual(playURL.query, "s=a%20b")
    }

    func testAWHEPTargetPlaysFromItsOwnURLAndAURLWithoutPlaceholderIsKept() throws {
        let target = try target("{ kind: 'whep', url: 'http://127.0.0.1:8080/whep/fixed' }", role: "player")
        let endpoint = try TargetResolver.resolve(try XCTUnwrap(target.url)).endpoint
        let (kind, url) = try WorkerRun.whipRequest(target: target, role: .player, stream: "other", endpoint: endpoint)
        XCTAssertEqual(kind, .whep)
        XCTAssertEqual(url, endpoint)
    }
}
