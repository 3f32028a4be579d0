import CShims
@testable import EventLoop
import RTCBase
import XCTest

/// The C form every datagram's address crosses: bytes in network order in `bytes`, IPv4 in
/// the first four, and back again unchanged.
final class SocketAddressCFormTests: XCTestCase {
    func testIPv4IsWrittenInNetworkOrderAndReadBack() throws {
        let address = SocketAddress(ipv4: 192, 0, 2, 33, port: 5004)
        let c = address.cAddress
        XCTAssertEqual(Int32(c.family), RS_AF_INET)
        XCTAssertEqual(c.port, 5004)
        XCTAssertEqual(withUnsafeBytes(of: c.bytes) { Array($0) }, [192, 0, 2, 33] + [UInt8](repeating: 0, count: 12))
        XCTAssertEqual(SocketAddress(c), address)
    }

    func testIPv6KeepsAllSixteenBytesAndItsZone() throws {
        let address = try XCTUnwrap(SocketAddress(bytes: [0x20, 0x01, 0x0d, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0xfe],
                                                  port: 443, scopeID: 7))
        let c = address.cAddress
        XCTAssertEqual(Int32(c.family), RS_AF_INET6)
        XCTAssertEqual(c.scope_id, 7)
        XCTAssertEqual(withUnsafeBytes(of: c.bytes) { Array($0) }, address.bytes)
        XCTAssertEqual(SocketAddress(c), address)
    }

    func testAnotherFamilyIsRefused() {
        var c = SocketAddress(ipv4: 127, 0, 0, 1, port: 1).cAddress
        c.family = 0
        XCTAssertNil(SocketAddress(c))
    }
}
