import Scenario
import XCTest

final class EnvironmentSubstitutionTests: XCTestCase {
    func testVariablesDefaultsAndEscapes() throws {
        let text = "url: '${SRS_URL:-http://127.0.0.1:1985}', count: ${PEERS:-20}, cost: '$$5', plain: '$HOME'"
        XCTAssertEqual(try EnvironmentSubstitution.apply(to: text, environment: ["PEERS": "300"]),
                       "url: 'http://127.0.0.1:1985', count: 300, cost: '$5', plain: '$HOME'")
        XCTAssertEqual(try EnvironmentSubstitution.apply(to: "${A:-x}", environment: ["A": ""]), "x",
                       "an empty variable takes the default, as in the shell")
    }

    func testMissingVariableWithoutDefaultNamesItAndTheLine() {
        XCTAssertThrowsError(try EnvironmentSubstitution.apply(to: "{\n\n url: '${JANUS_URL}' }", environment: [:])) { error in
            XCTAssertEqual((error as? MissingVariableError)?.description,
                           "line 3: ${JANUS_URL} is not set and has no default; set it or write ${JANUS_URL:-default}")
        }
    }
}
