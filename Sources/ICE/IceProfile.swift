/// Whose connectivity-check behaviour an `IceAgent` follows.
public enum IceProfile: String, Sendable, CaseIterable, Codable {
    /// What Chromium and the WebRTC mobile SDKs run (libwebrtc's p2p/base): a pair is
    /// used (selected, DTLS may start) on its first successful check, as RFC 8445 7.2.5.3.2
    /// allows; checks are paced at the 48 ms weak ping interval, each sent once and
    /// repeated by pinging the pair again, never by STUN retransmission; the controlling
    /// agent nominates semi-aggressively (USE-CANDIDATE on every check until a pair is
    /// selected, then on the selected pair's checks; against an ice-lite peer only on
    /// the selected pair's); a pair never answered fails after 15 s. The peer's first
    /// DTLS retransmission timer is twice the ICE round trip within 50 ms to 3 s.
    case libwebrtc
    /// RFC 8445 as written: Ta 50 ms, RFC 8489 retransmission from 500 ms, regular
    /// nomination (8.1.1), a pair used only once nominated (8.1.2); the first DTLS
    /// timer twice the round trip within 100 ms to 1 s.
    case rfc8445

    /// The pacing of new checks: libwebrtc's WEAK_PING_INTERVAL or RFC 8445 14.2's Ta.
    var defaultTa: Duration {
        switch self {
        case .libwebrtc: .milliseconds(48)
        case .rfc8445: .milliseconds(50)
        }
    }
}
