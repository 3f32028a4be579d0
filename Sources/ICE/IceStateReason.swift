/// Why the state changed.
public enum IceStateReason: String, Sendable {
    case checksStarted = "connectivity checks started"
    case pairNominated = "a candidate pair was nominated"
    /// libwebrtc profile: a pair is used on its first successful check, before nomination.
    case pairValid = "a candidate pair answered a check"
    case checksFinished = "all checks finished"
    case consentMissing = "no consent response for a while"
    case consentRestored = "consent responses resumed"
    /// RFC 7675 5.1: no response for 30 seconds.
    case consentExpired = "consent expired: no response for 30 s"
    case allPairsFailed = "every candidate pair failed"
    /// Relay-only and no TURN allocation is left (refused, timed out or lost).
    case relayUnavailable = "no TURN allocation"
    case restarted = "ICE restart"
}
