/// Named profiles for the networks users ask for, per direction.
///
/// | preset | loss | bursts (mean) | delay | jitter | reorder | rate | queue |
/// |---|---|---|---|---|---|---|---|
/// | `clean` | 0 % | - | 0 ms | 0 ms | no | unlimited | - |
/// | `3g` | 1 % | 1 packet (random) | 100 ms | 20 ms uniform | no | 750 kbps | 40 packets |
/// | `lossy-wifi` | 5 % | 3 packets (Gilbert) | 10 ms | 15 ms normal | no | 20000 kbps | 100 packets |
/// | `congested` | 0.5 % | 1 packet (random) | 40 ms | 5 ms uniform | no | 1000 kbps | 25 packets |
///
/// `3g` follows the "Regular 3G" throttling of browser developer tools (100 ms, 750 kbps)
/// with a modest loss; `lossy-wifi` has the short loss bursts of interference on a fast
/// link; `congested` is a shared bottleneck whose short queue overflows, so its loss comes
/// mostly from queue drops once the offered load exceeds 1 Mbps (up to 240 ms of
/// queueing for 1200-byte packets).
extension ImpairmentProfile {
    /// No impairment.
    public static let clean = ImpairmentProfile()

    /// A 3G mobile link: 100 ms, 20 ms jitter, 1 % loss, 750 kbps with a 40-packet queue.
    public static var threeG: ImpairmentProfile {
        var profile = ImpairmentProfile()
        profile.lossPct = 1
        profile.delayMs = 100
        profile.jitterMs = 20
        profile.rateKbps = 750
        profile.queuePackets = 40
        return profile
    }

    /// A fast Wi-Fi link with interference: 5 % loss in bursts of 3, 10 ms, 15 ms normal jitter.
    public static var lossyWifi: ImpairmentProfile {
        var profile = ImpairmentProfile()
        profile.lossPct = 5
        profile.burstLength = 3
        profile.delayMs = 10
        profile.jitterMs = 15
        profile.jitterDistribution = .normal
        profile.rateKbps = 20_000
        profile.queuePackets = 100
        return profile
    }

    /// A shared 1 Mbps bottleneck with a 25-packet queue, 40 ms, 0.5 % loss.
    public static var congested: ImpairmentProfile {
        var profile = ImpairmentProfile()
        profile.lossPct = 0.5
        profile.delayMs = 40
        profile.jitterMs = 5
        profile.rateKbps = 1000
        profile.queuePackets = 25
        return profile
    }

    /// The preset names scenario files may use, in the order of the table above.
    public static let presetNames = ["clean", "3g", "lossy-wifi", "congested"]

    /// The preset with this name, or nil (see `presetNames`).
    public static func preset(named name: String) -> ImpairmentProfile? {
        switch name {
        case "clean": return .clean
        case "3g": return .threeG
        case "lossy-wifi": return .lossyWifi
        case "congested": return .congested
        default: return nil
        }
    }
}
