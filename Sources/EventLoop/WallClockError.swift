import CShims

/// How far this machine's wall clock may be from true time, as the kernel's NTP state
/// says (adjtimex(2), kept by chrony or ntpd): what makes figures taken on two machines
/// comparable, or not.
public enum WallClockError {
    /// The estimated error in milliseconds (nil when unknown) and where it came from.
    public static func estimate() -> (errorMs: Double?, source: String) {
        var estimated: Int64 = 0, maximum: Int64 = 0
        switch rs_clock_error(&estimated, &maximum) {
        case 1:
            return (Double(estimated) / 1000, "adjtimex: synchronized, maximum error \(Double(maximum) / 1000) ms")
        case 0:
            return (nil, "adjtimex: the kernel says the clock is not synchronized (no chrony or ntpd)")
        default:
            return (nil, "adjtimex could not be read")
        }
    }
}
