import RTCBase
import Scenario
import XCTest

final class MatrixExpansionTests: XCTestCase {
    func testMatrixExpandsInOrderAndAppliesValuesToMediaGroupsOnly() throws {
        let scenario = try ScenarioLoader.load(text: """
        { name: "m", duration_s: 10, target: { kind: "builtin-room" },
          groups: [{ role: "pair", count: 2 }, { role: "member", count: 4 }],
          matrix: { codec: ["vp8", "h264"], resolution: ["640x360", "1280x720"], impairment: ["clean", { loss_pct: 5 }] } }
        """).scenario
        let cells = scenario.matrixCells
        XCTAssertEqual(cells.count, 8)
        XCTAssertEqual(cells.map(\.label).prefix(3), ["vp8 640x360 clean", "vp8 640x360 impairment-2", "vp8 1280x720 clean"])
        XCTAssertEqual(cells[7].label, "h264 1280x720 impairment-2")
        XCTAssertEqual(cells[7].parameters, ["codec": "h264", "resolution": "1280x720", "impairment": "impairment-2"])
        let last = cells[7].scenario
        XCTAssertEqual(last.groups[0].media?.video?.codec, .h264)
        XCTAssertEqual(last.groups[0].media?.video?.resolution, Resolution(width: 1280, height: 720))
        XCTAssertNil(last.groups[1].media, "members carry no media")
        XCTAssertEqual(last.groups[1].impairment?.receive?.changes.first?.profile.lossPct, 5, "impairment reaches every peer")
        XCTAssertNil(last.matrix)
    }

    func testNoMatrixIsOneDefaultCell() throws {
        let scenario = try ScenarioLoader.load(text: "{ name: 'x', duration_s: 1, target: { kind: 'builtin-room' }, groups: [{ role: 'member', count: 1 }] }").scenario
        XCTAssertEqual(scenario.matrixCells.map(\.label), ["default"])
    }
}
