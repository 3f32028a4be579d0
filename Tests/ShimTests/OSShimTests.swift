import CShims
import Glibc
import XCTest

/// The `_GNU_SOURCE` calls CShims wraps that EventLoop does not already cover in its
/// own tests: UDP generic segmentation and receive offload.
final class OSShimTests: XCTestCase {
    private func loopbackSocket() throws -> (fd: Int32, address: rs_address) {
        let fd = rs_udp_socket(UInt16(RS_AF_INET))
        XCTAssertGreaterThanOrEqual(fd, 0)
        var address = rs_address()
        address.family = UInt16(RS_AF_INET)
        withUnsafeMutableBytes(of: &address.bytes) { $0.copyBytes(from: [127, 0, 0, 1]) }
        XCTAssertEqual(rs_bind(fd, &address), 0)
        XCTAssertEqual(rs_local_address(fd, &address), 0)
        return (fd, address)
    }

    func testSegmentedSendArrivesAsSeparateDatagrams() throws {
        let receiver = try loopbackSocket()
        let sender = try loopbackSocket()
        defer { close(receiver.fd); close(sender.fd) }
        let payload = [UInt8](repeating: 9, count: 2500)
        var destination = receiver.address
        let sent = rs_send_segmented(sender.fd, payload, UInt32(payload.count), 1000, &destination)
        if sent < 0, errno == EIO || errno == EINVAL || errno == ENOPROTOOPT {
            throw XCTSkip("kernel refuses UDP_SEGMENT on loopback (errno \(errno))")
        }
        XCTAssertEqual(sent, 2500)
        var sizes: [Int] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<50 where sizes.count < 3 {
            let count = recv(receiver.fd, &buffer, buffer.count, 0)
            if count > 0 { sizes.append(count) } else { usleep(2000) }
        }
        XCTAssertEqual(sizes, [1000, 1000, 500])
    }

    func testGenericReceiveOffloadCanBeToggled() throws {
        let socket = try loopbackSocket()
        defer { close(socket.fd) }
        XCTAssertEqual(rs_set_udp_gro(socket.fd, 1), 0)
        XCTAssertEqual(rs_set_udp_gro(socket.fd, 0), 0)
    }

    func testTimerfdAndEventfdWrappers() throws {
        let timer = rs_timerfd_create()
        let wake = rs_eventfd_create()
        defer { close(timer); close(wake) }
        XCTAssertEqual(rs_timerfd_drain(timer), 0, "not armed: nothing to read")
        XCTAssertEqual(rs_timerfd_arm_absolute(timer, rs_monotonic_ns()), 0)
        usleep(1000)
        XCTAssertEqual(rs_timerfd_drain(timer), 1)
        XCTAssertEqual(rs_eventfd_signal(wake), 0)
        XCTAssertEqual(rs_eventfd_signal(wake), 0)
        var value: UInt64 = 0
        XCTAssertEqual(read(wake, &value, 8), 8)
        XCTAssertEqual(value, 2, "signals add up until drained")
    }
}
