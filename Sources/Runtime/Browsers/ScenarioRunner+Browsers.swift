import Foundation
import Scenario

extension ScenarioRunner {
    /// One Chromium per `pair` group whose partner is `chromium`, loading the built-in
    /// server's `/peer` page for that group's rooms; none when no group asks for it.
    /// A browser that cannot start stops the ones already started and fails the cell.
    func startBrowsers(scenario: Scenario, plan: ExecutionPlan, target: ResolvedTarget, folder: URL,
                       cellPrefix: String) throws(TargetError) -> [ChromiumPartner] {
        var browsers: [ChromiumPartner] = []
        for (index, group) in scenario.groups.enumerated() where group.role == .pair && group.partner == .chromium {
            let rooms = plan.peers.filter { $0.group == index }.compactMap(\.room)
            do {
                let page = try ChromiumPartner.pageURL(port: target.address.port, rooms: rooms, group: group,
                                                       scenario: scenario, groupIndex: index)
                let log = folder.appendingPathComponent("chromium-\(cellPrefix)g\(index).log")
                browsers.append(try ChromiumPartner(page: page, fps: group.videoFps, log: log))
            } catch {
                browsers.forEach { $0.stop() }
                throw error
            }
        }
        return browsers
    }
}
