import Net
import RTCBase
import XCTest

final class EndpointTests: XCTestCase {
    func testDefaultsPortPathAndKeepsQuery() throws {
        let plain = try Endpoint(parsing: "http://127.0.0.1")
        XCTAssertEqual(plain.port, 80)
        XCTAssertEqual(plain.path, "/")
        XCTAssertNil(plain.query)
        let secure = try Endpoint(parsing: "WSS://Example.COM/socket.io/?EIO=4&transport=websocket#frag")
        XCTAssertEqual(secure.scheme, .wss)
        XCTAssertTrue(secure.scheme.isSecure)
        XCTAssertEqual(secure.host, "example.com")
        XCTAssertEqual(secure.port, 443)
        XCTAssertEqual(secure.requestTarget, "/socket.io/?EIO=4&transport=websocket")
        XCTAssertEqual(secure.hostHeader, "example.com")
    }

    func testParsesExplicitPortAndIPv6Literal() throws {
        let srs = try Endpoint(parsing: "http://127.0.0.1:1985/rtc/v1/publish/")
        XCTAssertEqual(srs.port, 1985)
        XCTAssertEqual(srs.hostHeader, "127.0.0.1:1985")
        let v6 = try Endpoint(parsing: "https://[::1]:8443/whip?x=1")
        XCTAssertEqual(v6.host, "::1")
        XCTAssertEqual(v6.port, 8443)
        XCTAssertEqual(v6.hostHeader, "[::1]:8443")
        XCTAssertEqual(v6.description, "https://[::1]:8443/whip?x=1")
        XCTAssertEqual(try Endpoint(parsing: "ws://[fe80::1]").port, 80)
    }

    func testRejectsBadURLs() {
        for bad in ["ftp://a/", "127.0.0.1:80", "http://", "http://a:0/", "http://a:65536/", "http://a:x/",
                    "http://[::1/", "http://[nothex]/", "http://user@a/", "http://a b/", "http://a/with space"] {
            XCTAssertThrowsError(try Endpoint(parsing: bad), bad)
        }
    }

    func testResolvesLocationForms() throws {
        let base = try Endpoint(parsing: "http://127.0.0.1:1985/rtc/v1/whip/?app=live&stream=a")
        let srsLocation = try base.resolving("/rtc/v1/whip/?action=delete&token=2i7&app=live")
        XCTAssertEqual(srsLocation.description, "http://127.0.0.1:1985/rtc/v1/whip/?action=delete&token=2i7&app=live")
        XCTAssertEqual(try base.resolving("session/42").description, "http://127.0.0.1:1985/rtc/v1/whip/session/42")
        XCTAssertEqual(try base.resolving("../x").path, "/rtc/v1/x")
        XCTAssertEqual(try base.resolving("//other:9/p").description, "http://other:9/p")
        XCTAssertEqual(try base.resolving("https://h/r").port, 443)
        XCTAssertEqual(try base.resolving("?q=2").requestTarget, "/rtc/v1/whip/?q=2")
    }

    func testPercentEncodingRoundTripsUTF8AndRejectsBadEscapes() {
        XCTAssertEqual(PercentEncoding.encode("a b/ü~"), "a%20b%2F%C3%BC~")
        XCTAssertEqual(PercentEncoding.encode("/live/a b", allowing: "/"), "/live/a%20b")
        XCTAssertEqual(PercentEncoding.decode("a%20b%2F%C3%BC~"), "a b/ü~")
        XCTAssertEqual(PercentEncoding.decode("a+b", plusAsSpace: true), "a b")
        XCTAssertNil(PercentEncoding.decode("%2"))
        XCTAssertNil(PercentEncoding.decode("%zz"))
        XCTAssertNil(PercentEncoding.decode("%C3"))  // truncated UTF-8
        let items = PercentEncoding.queryItems("app=live&stream=a%2Fb&flag") ?? []
        XCTAssertEqual(items.map(\.name), ["app", "stream", "flag"])
        XCTAssertEqual(items.map(\.value), ["live", "a/b", ""])
        XCTAssertEqual(PercentEncoding.query([("eip", "127.0.0.1"), ("a b", "c&d")]), "eip=127.0.0.1&a%20b=c%26d")
    }
}
