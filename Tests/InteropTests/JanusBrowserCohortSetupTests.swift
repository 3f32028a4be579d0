import XCTest

/// rtcswarm's setup beside Chromium's on the same Janus at the same time
/// (`CohortSetupComparison`): `Scenarios/janus-browser-cohort.json5`'s rtcswarm echo peers
/// and Chromium echo peers of Janus 1.1.2's EchoTest over its HTTP API, the answer in a
/// long poll. Janus is full ICE and answers `a=setup:active`, so the peers are the DTLS
/// servers, and its DTLS (its ClientHello) waits for its own check to be answered.
///
/// Janus starts checking on its own clock, 20-21 ms after its answer for both clients here
/// (libnice's pacing), whenever the client checks. So where that wait falls between `ice`
/// and `dtls` depends on how soon each client applied the answer (rtcswarm in 2 ms,
/// Chromium in 14-18 ms): rtcswarm's `dtls_ms` carries some 15 ms of Janus's wait that
/// Chromium spends applying. The split is printed, not compared; `setup_ms` on the wire,
/// which holds all of it (`WireSetupPhases` counts out only the client time Janus waited
/// on), is. Not yet under loss: at 5 % STUN/DTLS loss 5 of 16 rtcswarm echo peers took
/// 534-5,818 ms in DTLS where Chromium's slowest took 150 ms, which is a fault of
/// rtcswarm's as DTLS server still to be found (issue 19), and a run may see no timer of
/// both clients to compare. Each peer's `dtls_ms` against its packets is not checked either:
/// as DTLS server, rtcswarm's handshake is done when the client's last flight arrives, and
/// its own final flight leaves 2-8 ms later on these loaded cores.
///
/// The peers echo Opus only: sixteen Chromium echo peers encoding and decoding video on
/// these two cores starve its renderer (it took 270-600 ms to apply an answer, and up to
/// 600 ms to answer a ClientHello), which times Chromium's process, not its pacing.
final class JanusBrowserCohortSetupTests: XCTestCase {
    private let comparison = CohortSetupComparison(server: .janus, target: "Janus", codec: "Opus", role: "echo", peers: "EchoTest peers",
                                                   variables: ["VIDEO": "false"], comparedPhases: [.setup], checksEachPeer: false)

    /// Runs with `RTCSWARM_JANUS_COHORT=1` only, until a fault is found: in one of four runs
    /// like CI's, one of the 16 Chromium echo peers stayed in ICE checking with Janus until
    /// its stop (the other 15 and every rtcswarm peer connected).
    func testSetupAgreesWithChromiumsOnTheSameJanus() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["RTCSWARM_JANUS_COHORT"] == "1",
                          "set RTCSWARM_JANUS_COHORT=1 to run it: in 1 of 4 runs a Chromium echo peer stayed in ICE checking with Janus, cause not found yet (issue 19)")
        try comparison.assertMediansAgree(self)
    }

}
