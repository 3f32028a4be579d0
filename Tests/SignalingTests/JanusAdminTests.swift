import RTCBase
import Signaling
import WebRTCTestKit
import XCTest

/// Janus's admin API answers, captured from Janus 1.1.2 (Debian) with curl.
final class JanusAdminTests: XCTestCase {
    private func body(_ fixture: String) throws -> String {
        let text = try Fixtures.text(fixture)
        return String(text[try XCTUnwrap(text.range(of: "\r\n\r\n")).upperBound...])
    }

    func testListSessionsCountsJanussSessions() throws {
        XCTAssertEqual(JanusAdmin.sessions(try body("janus/admin-list-sessions.response.http")), ["sessions": 2])
        XCTAssertEqual(JanusAdmin.sessions(#"{"janus":"success","transaction":"x","sessions":[]}"#), ["sessions": 0])
    }

    func testAnErrorOrAForeignBodyGivesNoFigures() throws {
        let unauthorized = try body("janus/admin-unauthorized.response.http")
        XCTAssertTrue(unauthorized.contains("Unauthorized request (wrong or missing secret/token)"))
        XCTAssertNil(JanusAdmin.sessions(unauthorized))
        XCTAssertNil(JanusAdmin.sessions("<html>"))
        XCTAssertNil(JanusAdmin.sessions(#"{"janus":"success"}"#))
    }

    func testTheRequestCarriesTheSecretAndTransaction() throws {
        let request = try JSONValue(parsing: JanusAdmin.listSessionsBody(secret: "s3", transaction: "t-1"))
        XCTAssertEqual(request, .object(["janus": "list_sessions", "transaction": "t-1", "admin_secret": "s3"]))
    }
}
