import XCTest

/// rtcswarm's setup beside Chromium's on the same SRS at the same time
/// (`CohortSetupComparison`): `Scenarios/srs-browser-cohort.json5`'s rtcswarm players and
/// Chromium players of one stream through SRS's WHEP endpoint. SRS is ICE lite and answers
/// `a=setup:passive`, so the players check and are the DTLS clients.
final class BrowserCohortSetupTests: XCTestCase {
    private let comparison = CohortSetupComparison(server: .srs, target: "SRS", codec: "H.264+Opus", role: "player", peers: "WHEP players")

    func testSetupPhasesAgreeWithChromiumsOnTheSameSRS() throws {
        try comparison.assertMediansAgree(self)
    }

    func testUnderFivePercentLossTheTimersAreChromiumsAndTheFiguresTheWires() throws {
        try comparison.assertTimersAgree(self)
    }
}
