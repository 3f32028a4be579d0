import RtcswarmCLI
import XCTest

/// `rtcswarm serve`'s limits for hostile clients are flags, checked before it listens.
final class ServeCommandTests: XCTestCase {
    func testTheHostileClientLimitsAreFlagsWithCheckedValues() {
        let cases: [([String], String)] = [
            (["--max-rate-per-address", "-1"], "--max-rate-per-address -1: expected a number from 0.0 to 10000000.0"),
            (["--max-queued-bytes", "10"], "--max-queued-bytes 10: expected a whole number from 4096 to 1073741824"),
            (["--max-queued-messages", "0"], "--max-queued-messages 0: expected a whole number from 1 to 10000000"),
            (["--handshake-timeout", "0"], "--handshake-timeout 0: expected a number from 0.1 to 3600.0"),
        ]
        for (flags, message) in cases {
            let captured = CapturedConsole()
            XCTAssertEqual(Rtcswarm.main(["serve", "--listen", "127.0.0.1:0"] + flags, console: captured.console), .usage, flags.joined(separator: " "))
            XCTAssertTrue(captured.error.contains(message), captured.error)
        }
        let help = CapturedConsole()
        _ = Rtcswarm.main(["serve", "--help"], console: help.console)
        for flag in ["--max-rate-per-address", "--max-queued-bytes", "--max-queued-messages", "--handshake-timeout"] {
            XCTAssertTrue(help.out.contains(flag), "\(flag) in: \(help.out)")
        }
    }
}
