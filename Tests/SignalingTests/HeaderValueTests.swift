import RTCBase
import Signaling
import XCTest

/// The header values WHIP/WHEP servers send: `Retry-After` (RFC 9110 10.2.3) and
/// `Link: rel="ice-server"` (RFC 9725 4.6 with RFC 8288 syntax).
final class HeaderValueTests: XCTestCase {
    func testRetryAfterReadsSecondsDatesAndClampsHugeValues() {
        XCTAssertEqual(RetryAfter(fieldValue: "120"), .seconds(120))
        XCTAssertEqual(RetryAfter(fieldValue: " 0 "), .seconds(0))
        XCTAssertEqual(RetryAfter(fieldValue: "99999999999999999999"), .seconds(999_999_999))
        XCTAssertEqual(RetryAfter(fieldValue: "Fri, 31 Dec 1999 23:59:59 GMT"), .date("Fri, 31 Dec 1999 23:59:59 GMT"))
        XCTAssertNil(RetryAfter(fieldValue: "  "))
    }

    func testIceServerLinksKeepOnlyIceServerRelationsWithTheirCredentials() {
        let links = IceServerLink.parse([
            #"<stun:stun.example.net>; rel="ice-server", <https://example.net/doc>; rel=help"#,
            #"<turns:turn.example.net?transport=tcp>; REL=ice-server; username=alice; credential="a;b,c"; credential-type="password""#,
            #"junk, <turn:t2>;rel="other ice-server";username="x\"y""#,
            #"<broken; rel="ice-server""#,
        ])
        XCTAssertEqual(links, [
            IceServerConfig(urls: ["stun:stun.example.net"]),
            IceServerConfig(urls: ["turns:turn.example.net?transport=tcp"], username: "alice", credential: "a;b,c", credentialType: "password"),
            IceServerConfig(urls: ["turn:t2"], username: "x\"y"),
        ])
    }
}
