import Foundation
import WebRTCTestKit
import XCTest

/// The LD_PRELOAD shim for libnice-based servers: getifaddrs() still lists every
/// interface with its flags, only IFF_LOOPBACK is gone.
final class LoopbackShimTests: XCTestCase {
    static let loopbackFlag = 0x8  // IFF_LOOPBACK, <net/if.h>

    func testShimClearsOnlyTheLoopbackFlagInGetifaddrs() throws {
        let environment = try LoopbackShim.environment()
        let plain = try flags(environment: nil)
        let shimmed = try flags(environment: environment)
        XCTAssertEqual(Set(shimmed.keys), Set(plain.keys), "the same interfaces")
        let lo = try XCTUnwrap(plain["lo"], "no lo in \(plain)")
        XCTAssertEqual(lo & Self.loopbackFlag, Self.loopbackFlag, "libc reports lo as loopback")
        XCTAssertEqual(shimmed["lo"], lo & ~Self.loopbackFlag, "the shim clears IFF_LOOPBACK and nothing else")
        for (name, value) in plain where name != "lo" { XCTAssertEqual(shimmed[name], value & ~Self.loopbackFlag, name) }
    }

    /// What Tests/Interop/ifaddrs_flags.py reads through getifaddrs(), by interface name.
    private func flags(environment: [String: String]?) throws -> [String: Int] {
        let python = try ExternalTool.require("python3", installHint: "apt-get install python3")
        let process = try ManagedProcess(python, [PythonPeers.script("ifaddrs_flags.py")], environment: environment)
        defer { process.stop() }
        XCTAssertEqual(process.wait(timeout: 10), 0, process.text)
        let data = Data(process.text.utf8)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Int], process.text)
    }
}
