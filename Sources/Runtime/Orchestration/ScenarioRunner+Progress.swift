import Foundation
import Report
import Scenario

extension ScenarioRunner {
    func progressLine(cell: MatrixCell, index: Int, total: Int, t: Double, duration: Double, sample: TimeSample,
                              lag: Double) -> String {
        let cellText = total > 1 ? "[\(index + 1)/\(total) \(cell.label)] " : ""
        return "\(cellText)\(Self.format(t))/\(Self.format(duration)) s | peers: \(sample.connectingPeers) connecting, "
            + "\(sample.connectedPeers) connected, \(sample.failedPeers) failed | worker lag p99 \(Self.format(sample.lagP99Ms)) ms, "
            + "coordinator \(Self.format(lag)) ms"
    }

    /// Late frames are a finding when they are more than 1 % of the frames due: a frame or
    /// two made late on a busy machine (a scheduler hiccup) shows in no received figure.
    static func encodersFellBehind(late: Int, due: Int) -> Bool { late * 100 > due }

    /// The groups' ICE profiles (`ice.profile`, libwebrtc by default), each named once.
    static func iceProfiles(_ scenario: Scenario) -> String {
        var names: [String] = []
        for group in scenario.groups {
            let name = group.iceProfile.rawValue
            if !names.contains(name) { names.append(name) }
        }
        return names.joined(separator: ", ")
    }

    static func format(_ value: Double) -> String { String(format: value >= 100 ? "%.0f" : "%.1f", value) }
}
