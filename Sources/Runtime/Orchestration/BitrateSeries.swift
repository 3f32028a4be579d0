/// The run's sent and received kbit/s for each sample, from the workers' running byte
/// counts: the bytes since the previous sample over the time since it.
struct BitrateSeries {
    private var last: (t: Double, sent: Int, received: Int) = (0, 0, 0)

    /// kbit/s sent and received between the previous sample and this one at `t` seconds,
    /// given the byte counts at `t`.
    mutating func kbps(at t: Double, sent: Int, received: Int) -> (sent: Double, received: Double) {
        let seconds = t - last.t
        defer { last = (t, sent, received) }
        guard seconds > 0 else { return (0, 0) }
        return (Double(max(0, sent - last.sent)) * 8 / 1000 / seconds, Double(max(0, received - last.received)) * 8 / 1000 / seconds)
    }
}
