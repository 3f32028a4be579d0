/// The retransmission timeout of RFC 9260 6.3.1: SRTT and RTTVAR from RTT measurements
/// (alpha 1/8, beta 1/4), RTO = SRTT + 4 RTTVAR clamped to [min, max], doubled on each
/// T3-rtx expiry (6.3.3 E2) until the next measurement.
struct RetransmissionTimeout: Sendable {
    private(set) var rto: Duration
    private(set) var srtt: Duration?
    private var rttvar: Duration = .zero
    let minimum: Duration
    let maximum: Duration

    init(initial: Duration = .seconds(1), minimum: Duration = .seconds(1), maximum: Duration = .seconds(60)) {
        rto = initial
        self.minimum = minimum
        self.maximum = maximum
    }

    /// C1 to C3: one RTT measurement R.
    mutating func measured(_ rtt: Duration) {
        if let srtt {
            let deviation = srtt > rtt ? srtt - rtt : rtt - srtt
            rttvar = rttvar * 3 / 4 + deviation / 4
            self.srtt = srtt * 7 / 8 + rtt / 8
        } else {
            srtt = rtt
            rttvar = rtt / 2
        }
        rto = clamp((srtt ?? rtt) + rttvar * 4)
    }

    /// E2: back off after a T3-rtx expiry.
    mutating func backOff() { rto = clamp(rto * 2) }

    private func clamp(_ value: Duration) -> Duration { min(max(value, minimum), maximum) }
}
