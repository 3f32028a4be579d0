import SDP
import XCTest

final class SDPCanonicalFormTests: XCTestCase {
    /// The typed model loses nothing: reprinting each parsed line from its typed value
    /// gives the captured text, except aiortc's `msid-semantic:WMS *` (no space).
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
        XCTAssertEqual(differing, ["a=msid-semantic:WMS *"])
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
