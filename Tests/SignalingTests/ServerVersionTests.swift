import Net
import Signaling
import WebRTCTestKit
import XCTest

/// Server versions from the captured answers of SRS 7 and Janus 1.1.2.
final class ServerVersionTests: XCTestCase {
    /// The fixture's body, through our HTTP parser (Janus's answer is chunked).
    private func body(_ fixture: String) throws -> String {
        var parser = HTTPResponseParser()
        parser.expectResponse(to: .get)
        parser.append(Array(try Fixtures.text(fixture).utf8))
        return try XCTUnwrap(try parser.next()).bodyText
    }

    func testSRSAndJanusSayTheirVersions() throws {
        XCTAssertEqual(ServerVersion.srs(try body("srs/api-versions.response.http")), "SRS 7.0.18")
        XCTAssertEqual(ServerVersion.janus(try body("janus/info.response.http")), "Janus 1.1.2")
        XCTAssertEqual(ServerVersion.janusPath(root: "/janus"), "/janus/info")
        XCTAssertEqual(ServerVersion.janusPath(root: "/janus/"), "/janus/info")
    }

    func testOtherAnswersGiveNoVersion() throws {
        XCTAssertNil(ServerVersion.srs(#"{"code":400}"#))
        XCTAssertNil(ServerVersion.srs(try body("janus/info.response.http")))
        XCTAssertNil(ServerVersion.janus(try body("srs/api-versions.response.http")))
        XCTAssertNil(ServerVersion.janus("not json"))
    }
}
