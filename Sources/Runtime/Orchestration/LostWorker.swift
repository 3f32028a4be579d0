import Metrics
import Report
import RTCBase
import Scenario

/// What the coordinator still knows of a worker process that ended without its result
/// (killed, crashed, or stopped at the deadline): the records its peers sent, and a failed
/// record with the reason for every planned peer that sent none, so the report holds every
/// peer whatever happened to the process.
enum LostWorker {
    /// One failed record for each of `planned` without a record among `reported` (matched
    /// by id, once each: a slot can live more than once), ended at `atMs` with `reason`.
    static func unreported(_ planned: [ExecutionPlan.Peer], reported: [PeerRecord], scenario: Scenario, reason: String,
                           atMs: Double) -> [PeerRecord] {
        var sent = Dictionary(reported.map { ($0.id, 1) }, uniquingKeysWith: +)
        return planned.compactMap { peer in
            if let count = sent[peer.id], count > 0 {
                sent[peer.id] = count - 1
                return nil
            }
            let role = peer.side == .single ? scenario.groups[peer.group].role.rawValue : peer.side.rawValue
            return PeerRecord(id: peer.id, group: peer.group, role: role, startedAtMs: min(Double(peer.startMs), atMs), endedAtMs: atMs,
                              outcome: .failed, failureReason: reason)
        }
    }

    /// The figures of its records, as its own recorder would have kept them (the result
    /// that never came also held its lag, CPU and memory: those are lost with it).
    static func metrics(of records: [PeerRecord], runStart: Instant) -> MetricSet {
        let recorder = RunRecorder(runStart: runStart)
        records.forEach(recorder.finish)
        recorder.set(.connectedPeers, to: Double(recorder.connectedPeers))
        return recorder.metrics
    }
}
