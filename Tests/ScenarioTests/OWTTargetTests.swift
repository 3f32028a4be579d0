import Scenario
import XCTest

/// An `owt` target names its portal and either a token or the REST API's service
/// credentials with a room; anything else is refused with the key to fix.
final class OWTTargetTests: XCTestCase {
    private func load(owt: String, groups: String = #"[{ role: "publisher", count: 1 }]"#, url: String = "") -> String? {
        do {
            _ = try ScenarioLoader.load(text: #"{ name: "o", duration_s: 5, target: { kind: "owt", \#(url) owt: \#(owt) }, groups: \#(groups) }"#)
            return nil
        } catch {
            return error.description
        }
    }

    func testATokenOrServiceCredentialsWithARoomAreAccepted() {
        XCTAssertNil(load(owt: #"{ portal: "http://127.0.0.1:8080", token: "abc" }"#))
        XCTAssertNil(load(owt: #"{ portal: "https://owt.example:8080", service_id: "s", service_key: "k", room: "r1", engine_io: 4 }"#,
                          groups: #"[{ role: "player", count: 2, stream: { from: "mixed" } }]"#))
    }

    func testMistakesNameTheirKey() {
        XCTAssertEqual(load(owt: #"{ portal: "ws://127.0.0.1:8080", token: "abc" }"#),
                       #"target.owt.portal: "ws://127.0.0.1:8080" must start with http:// or https://, e.g. "${OWT_URL:-http://127.0.0.1:8080}""#)
        XCTAssertEqual(load(owt: #"{ portal: "http://127.0.0.1:8080" }"#),
                       "target.owt.token: give a token, or service_id and service_key to ask the REST API for one per peer")
        XCTAssertEqual(load(owt: #"{ portal: "http://127.0.0.1:8080", token: "abc", service_id: "s", service_key: "k" }"#),
                       "target.owt.token: give a token or service_id and service_key, not both")
        XCTAssertEqual(load(owt: #"{ portal: "http://127.0.0.1:8080", service_id: "s" }"#),
                       "target.owt.service_id: service_id and service_key go together (the REST API signs with the key of that service)")
        XCTAssertEqual(load(owt: #"{ portal: "http://127.0.0.1:8080", service_id: "s", service_key: "k" }"#),
                       "target.owt.room: the REST API issues tokens for a room: set room to its id")
        XCTAssertEqual(load(owt: #"{ portal: "http://127.0.0.1:8080", token: "abc", engine_io: 2 }"#), "target.owt.engine_io: 2 must be 3 or 4")
        XCTAssertEqual(load(owt: #"{ portal: "http://127.0.0.1:8080", token: "abc" }"#, url: #"url: "http://127.0.0.1:8080","#),
                       "target.url: an owt target's portal is target.owt.portal; remove url")
        XCTAssertEqual(load(owt: #"{ portal: "http://127.0.0.1:8080", token: "abc" }"#, groups: #"[{ role: "pair", count: 1 }]"#),
                       #"groups[0].role: "pair" does not work with a owt target; use publisher or player or member"#)
        XCTAssertEqual(load(owt: #"{ portal: "http://127.0.0.1:8080", token: "abc" }"#,
                            groups: #"[{ role: "publisher", count: 1, stream: { from: "mixed" } }]"#),
                       "groups[0].stream.from: only OWT players choose forward or mixed; remove it")
    }
}
