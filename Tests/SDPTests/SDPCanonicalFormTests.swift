import SDP
import XCTest

final class SDPCanonicalFormTests: XCTestCase {
    /// The typed model loses nothing: reprinting each parsed line from its typed value
    /// gives the captured text, except aiortc's `msid-semantic:WMS *` (no space) and
    /// Pion's trailing spaces (`a=rtcp-fb:102 nack `), which reprint trimmed.
    func testTypedValuesReprintEveryCapturedLineExceptAiortcMsidSemantic() throws {
        var differing: Set<String> = []
        var typedLines = 0
        for (_, text) in try SDPFixtureCorpus.all() {
            let sdp = try SessionDescription.parse(text)
            for line in sdp.lines + sdp.media.flatMap(\.lines) {
                if case .attribute(.other) = line.field {} else { typedLines += 1 }
                if SDPLine(line.field).text != line.text { differing.insert(line.text) }
            }
            XCTAssertEqual(sdp.media.map { "m=\($0.mediaLine)" }, text.split(separator: "\r\n").filter { $0.hasPrefix("m=") }.map(String.init))
        }
        let trailingSpace = differing.filter { $0.hasSuffix(" ") }
        XCTAssertEqual(differing.subtracting(trailingSpace), ["a=msid-semantic:WMS *"])
        XCTAssertTrue(trailingSpace.contains("a=rtcp-fb:102 nack "), "\(trailingSpace)")
        for line in trailingSpace {
            let field = try SessionDescription.parse("v=0\r\no=- 1 2 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n\(line)\r\n").lines.last!.field
            XCTAssertEqual(SDPLine(field).text, line.trimmingCharacters(in: .whitespaces))
        }
        XCTAssertGreaterThan(typedLines, 1500)
    }

    func testOnlyRtcpRtcpXrAndExtmapAllowMixedStayUntyped() throws {
        var untyped: Set<String> = []
        for (_, text) in try SDPFixtureCorpus.all() {
            let sdp = try SessionDescription.parse(text)
            for attribute in sdp.attributes + sdp.media.flatMap(\.attributes) {
                if case .other(let name, _) = attribute { untyped.insert(name) }
            }
        }
        XCTAssertEqual(untyped, ["rtcp", "rtcp-xr", "extmap-allow-mixed"])
    }
}
