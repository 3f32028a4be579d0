import Metrics
import Report
import RoomServer
import Scenario

extension ScenarioRunner {
    /// The cell's report from what its workers sent: the merged figures, the thresholds
    /// judged on them, the series, every record, and the warnings the cell earned.
    func cellReport(_ cell: MatrixCell, scenario: Scenario, plan: ExecutionPlan, collector: CellCollector, series: CellSeries,
                    endedAtMs: Double, children: [WorkerProcess], server: RoomServerStream?, statsPoller: ServerStatsPoller?) -> CellReport {
        var metrics = collector.metrics
        let records = collector.records
        let results = collector.results.values
        if !interrupted, endedAtMs < Double(plan.durationMs), !records.isEmpty, records.allSatisfy({ $0.outcome == .failed }) {
            let early = "\(cell.label): every peer had failed by \(Self.format(endedAtMs / 1000)) s and none was left to start: the run "
                + "ended \(Self.format((Double(plan.durationMs) - endedAtMs) / 1000)) s before its planned end"
            warnings.append(early)
            options.progress(early)
        }
        // The built-in server's relays of the members' rooms (pairs' offers and answers go
        // through other rooms and are not counted).
        let rooms = RoomMessageSummary.rooms(of: records, relayedByRoom: server?.stats.messagesRelayedByRoom)
        if let relayed = RoomMessageSummary.total(of: rooms).relayed, !rooms.isEmpty { metrics.increment(.messagesRelayed, by: relayed) }
        Self.addNotifications(of: records, to: &metrics)
        let outcomes = scenario.judgedThresholds.compactMap { judged -> ThresholdOutcome? in
            guard let threshold = try? Threshold(parsing: judged.spec.expr) else { return nil }
            let verdict = threshold.evaluate(metrics)
            return ThresholdOutcome(expr: judged.spec.expr, passed: verdict.passed, measured: verdict.measured,
                                    abortOnFail: judged.spec.abortsRun, implied: judged.implied ? true : nil)
        }
        let late = results.reduce(0) { $0 + $1.lateFrames }
        let due = results.reduce(0) { $0 + $1.framesDue }
        if Self.encodersFellBehind(late: late, due: due) {
            warnings.append("\(cell.label): the encoders fell behind real time by \(late) of \(due) frames: this machine cannot encode "
                            + "the scenario's tracks at their frame rate; lower the resolution or fps, or use fewer distinct tracks per worker")
        }
        warnings.append(contentsOf: Set(results.flatMap(\.encoderErrors)).sorted().map { "\(cell.label): encoder failed: \($0)" })
        if let lost = PeerRecord.signalingLossWarning(records) { warnings.append("\(cell.label): \(lost)") }
        warnings.append(contentsOf: children.compactMap(\.garbledWarning).map { "\(cell.label): \($0)" })
        if let statsPoller, statsPoller.latest.isEmpty, let problem = statsPoller.lastProblem {
            warnings.append("\(cell.label): no server-side figures: \(problem)")
        }
        targetVersion = targetVersion ?? statsPoller?.version
        var report = CellReport(label: cell.label, parameters: cell.parameters, metrics: metrics, thresholds: outcomes,
                                timeSeries: series.samples, peers: records, serverSamples: series.serverSamples)
        report.rooms = rooms.isEmpty ? nil : rooms
        report.actions = Self.actions(of: scenario, plan: plan, records: records)
        let calibration = CalibrationRow.rows(records)
        report.calibration = calibration.isEmpty ? nil : calibration
        return report
    }

    /// Each timeline action with the peers of `plan` it concerns (those that do it; for a
    /// `leave`, `rejoin` or `churn` the connections it closed; for an `impairment` the
    /// connections of its groups up at its time), and its cost from `records`.
    static func actions(of scenario: Scenario, plan: ExecutionPlan, records: [PeerRecord]) -> [ActionRecord]? {
        guard let timeline = scenario.timeline, !timeline.isEmpty else { return nil }
        let acting = plan.peers.flatMap { ExecutionPlan.actions(for: $0, in: scenario).map(\.entry) }
        let actions = timeline.enumerated().map { entry, action in
            let group = switch action.group ?? .all {
            case .all: "all"
            case .index(let index): "\(index)"
            case .name(let name): name
            }
            let atMs = ExecutionPlan.milliseconds(action.atS), groups = (action.group ?? .all).indexes(in: scenario.groups)
            let peers = action.changesConnection ? plan.peers.filter { $0.leftBy == entry }.count
                : action.action == .impairment ? plan.peers.filter { groups.contains($0.group) && $0.startMs <= atMs && atMs < $0.stopMs }.count
                : acting.filter { $0 == entry }.count
            return ActionRecord(entry: entry, atS: action.atS, group: group, action: action.action.rawValue, peers: peers)
        }
        return ActionRecord.withFigures(actions, from: records)
    }

    /// OWT notifications: every peer's `ConferenceLog` paired across workers after the run.
    static func addNotifications(of records: [PeerRecord], to metrics: inout MetricSet) {
        let logs = records.compactMap(\.conference)
        guard !logs.isEmpty else { return }
        let notifications = ConferenceNotifications(logs: logs)
        for value in notifications.streamNotifyMs { metrics.record(value, in: .streamNotifyMs) }
        for value in notifications.participantNotifyMs { metrics.record(value, in: .participantNotifyMs) }
        metrics.increment(.notificationsExpected, by: notifications.expected)
        metrics.increment(.notificationsReceived, by: notifications.received)
        metrics.increment(.notificationsLost, by: notifications.lost)
    }
}
