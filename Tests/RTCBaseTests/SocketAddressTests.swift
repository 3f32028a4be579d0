import RTCBase
import XCTest

final class SocketAddressTests: XCTestCase {
    func testParsesAndPrintsIPv4() throws {
        let address = try XCTUnwrap(SocketAddress("127.0.0.1:5000"))
        XCTAssertEqual(address.family, .ipv4)
        XCTAssertEqual(address.port, 5000)
        XCTAssertEqual(address.bytes, [127, 0, 0, 1])
        XCTAssertEqual(address.description, "127.0.0.1:5000")
        XCTAssertTrue(address.isLoopback)
        XCTAssertEqual(address, SocketAddress(ipv4: 127, 0, 0, 1, port: 5000))
    }

    func testParsesAndPrintsIPv6() throws {
        let address = try XCTUnwrap(SocketAddress("[::1]:443"))
        XCTAssertEqual(address.family, .ipv6)
        XCTAssertEqual(address.bytes, Array(repeating: 0, count: 15) + [1])
        XCTAssertEqual(address.description, "[::1]:443")
        XCTAssertTrue(address.isLoopback)
        let other = try XCTUnwrap(SocketAddress(host: "2001:db8::7", port: 9))
        XCTAssertEqual(other.host, "2001:db8::7")
        XCTAssertFalse(other.isLoopback)
    }

    func testRejectsMalformedText() {
        for text in ["", "127.0.0.1", "127.0.0.1:", "127.0.0.1:70000", "300.1.1.1:5", "[::1:5", "[::1]5", "host:80"] {
            XCTAssertNil(SocketAddress(text), text)
        }
        XCTAssertNil(SocketAddress(bytes: [1, 2, 3], port: 1))
    }

    func testNonLoopbackIPv4() throws {
        XCTAssertFalse(try XCTUnwrap(SocketAddress("10.0.0.1:1")).isLoopback)
        XCTAssertTrue(try XCTUnwrap(SocketAddress("127.8.9.10:1")).isLoopback)
    }
}
