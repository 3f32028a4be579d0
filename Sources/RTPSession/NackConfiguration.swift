/// When and how often a receive stream NACKs missing packets (RFC 4585 6.2.1); see
/// `NackGenerator` for how the values are used.
public struct NackConfiguration: Equatable, Sendable {
    /// Wait after a packet goes missing before the first NACK, so mild reordering
    /// fills the gap first (a reordered packet NACKed would count as network loss).
    public var firstDelay: Duration = .milliseconds(10)
    /// NACKs per packet before giving it up.
    public var maxRetries = 10
    /// Lower bound of the retry interval (otherwise the round-trip time + 25 %).
    public var minimumRetryInterval: Duration = .milliseconds(20)
    /// Missing packets tracked at most; the oldest are given up first.
    public var maxMissing = 1000

    public init() {}

    /// The time between two NACKs of one packet: a round trip and a quarter (the resend
    /// had its chance), at least `minimumRetryInterval`; 100 ms while no round trip is known.
    public func retryInterval(roundTripTime: Duration?) -> Duration {
        max(minimumRetryInterval, (roundTripTime ?? .milliseconds(100)) * 5 / 4)
    }

    /// From a packet going missing to its being given up: the first delay, then
    /// `maxRetries` NACKs a retry interval apart, the last one's resend given its retry
    /// interval to arrive. A frame missing that packet may be completed until then.
    public func resendWindow(roundTripTime: Duration?) -> Duration {
        firstDelay + retryInterval(roundTripTime: roundTripTime) * maxRetries
    }
}
