import Foundation
import WebRTCTestKit
import XCTest

final class JSONLinesProcessTests: XCTestCase {
    /// A shell that reads one line and answers with lines split across writes, a non-JSON
    /// line and a blank one: objects come out whole and in order, the rest is skipped.
    func testLinesInAndOutSkippingWhatIsNotAJSONObject() throws {
        let sh = try ExternalTool.require("sh", installHint: "a POSIX shell")
        let script = #"read line; printf '{"type":"echo",'; sleep 0.05; printf '"got":%s}\n' "$line"; "#
            + #"echo 'not json'; echo; echo '{"type":"last"}'; echo 'to stderr' >&2"#
        let process = try JSONLinesProcess(sh, ["-c", script])
        defer { process.stop() }
        try process.send(["n": 42])
        let echo = try XCTUnwrap(process.next(timeout: 5))
        XCTAssertEqual(echo["type"] as? String, "echo")
        XCTAssertEqual((echo["got"] as? [String: Any])?["n"] as? Int, 42)
        XCTAssertEqual(process.next(ofType: ["last"], timeout: 5)?["type"] as? String, "last")
        XCTAssertNil(process.next(timeout: 5), "output closed")
        XCTAssertEqual(process.wait(timeout: 5), 0)
        XCTAssertEqual(process.standardError, "to stderr\n")
    }
}
