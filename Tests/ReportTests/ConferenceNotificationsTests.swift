import Report
import XCTest

/// `ConferenceNotifications` on three hand-made logs: which notices are expected, which
/// came, and how long after their events.
final class ConferenceNotificationsTests: XCTestCase {
    private func ms(_ value: Double) -> Int64 { Int64(value * 1_000_000) }

    private func notice(_ kind: ConferenceLog.Notice.Kind, _ subject: String, at milliseconds: Double) -> ConferenceLog.Notice {
        ConferenceLog.Notice(kind: kind, subject: subject, atNs: ms(milliseconds))
    }

    /// a publishes S at 2 s; b logs in at 1 s; c logs in at 3 s (S, a and b in its room
    /// info) and logs out at 6 s; a and b stay until 10 s. a hears of b's join (10 ms),
    /// c's join (4 ms) and leave (20 ms); b hears of S (5 ms) and c's leave (30 ms) but
    /// never of c's join; c expects nothing. The logouts at 10 s are inside the window.
    func testExpectedReceivedLostAndTimes() {
        let a = ConferenceLog(participant: "a", loginAtNs: 0, endAtNs: ms(10_000), loggedOut: true,
                              published: [.init(stream: "S", readyAtNs: ms(2_000))],
                              notices: [notice(.join, "b", at: 1_010), notice(.join, "c", at: 3_004), notice(.leave, "c", at: 6_020)])
        let b = ConferenceLog(participant: "b", loginAtNs: ms(1_000), endAtNs: ms(10_000), loggedOut: true, knownParticipants: ["a"],
                              notices: [notice(.streamAdd, "S", at: 2_005), notice(.leave, "c", at: 6_030)])
        let c = ConferenceLog(participant: "c", loginAtNs: ms(3_000), endAtNs: ms(6_000), loggedOut: true, knownStreams: ["S"],
                              knownParticipants: ["a", "b"])
        let figures = ConferenceNotifications(logs: [a, b, c])
        XCTAssertEqual(figures.expected, 6)
        XCTAssertEqual(figures.received, 5)
        XCTAssertEqual(figures.lost, 1)
        XCTAssertEqual(figures.streamNotifyMs, [5])
        XCTAssertEqual(figures.participantNotifyMs.sorted(), [4, 10, 20, 30])
    }

    /// A participant that failed (no logout) announces no leave; one that arrives within
    /// the window before a publication's end expects no `stream add`; a second copy of a
    /// notice is timed but counted once.
    func testFailuresWindowsAndCopies() {
        let publisher = ConferenceLog(participant: "p", loginAtNs: 0, endAtNs: ms(5_000), loggedOut: false,
                                      published: [.init(stream: "S", readyAtNs: ms(1_000))])
        let early = ConferenceLog(participant: "e", loginAtNs: ms(500), endAtNs: ms(9_000), loggedOut: true, knownParticipants: ["p"],
                                  notices: [notice(.streamAdd, "S", at: 1_002), notice(.streamAdd, "S", at: 1_003),
                                            notice(.join, "l", at: 4_601)])
        let late = ConferenceLog(participant: "l", loginAtNs: ms(4_500), endAtNs: ms(9_000), loggedOut: true, knownParticipants: ["p", "e"])
        let figures = ConferenceNotifications(logs: [publisher, early, late])
        // e: S (twice, once counted) and l's join; p: e's join (not received; l joins less
        // than 1 s before p ends); l: nothing (S ends 0.5 s after its login, p never logs out).
        XCTAssertEqual(figures.expected, 3)
        XCTAssertEqual(figures.received, 2)
        XCTAssertEqual(figures.streamNotifyMs, [2, 3])
        XCTAssertEqual(figures.participantNotifyMs.sorted(), [101])
    }
}
