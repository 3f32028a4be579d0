import Report

extension LiveFigures {
    /// Takes in what a worker sent: its latest sample, or an ended peer's record.
    mutating func observe(_ message: WorkerMessage, from worker: Int) {
        if let record = message.peer { ended(record) }
        guard let sample = message.sample else { return }
        var figures = Worker()
        (figures.groups, figures.lagP99Ms) = (sample.groups ?? [:], sample.lagP99Ms)
        (figures.bytesSent, figures.bytesReceived, figures.cpuSeconds) = (sample.bytesSent, sample.bytesReceived, sample.cpuSeconds)
        if let receive = sample.receive { figures.take(receive) }
        workers[worker] = figures
    }
}

extension LiveFigures {
    /// A worker's final figures once its part of the cell is over: nothing live any more,
    /// bytes from its result, and what its peers received from their records, so the last
    /// scrape adds up to the report's totals.
    mutating func finish(worker: Int, records: [PeerRecord], report: WorkerReport?) {
        var figures = workers[worker] ?? Worker()
        figures.groups = records.reduce(into: [:]) { byGroup, record in
            byGroup[record.group, default: PeerStates()].failed += record.outcome == .failed ? 1 : 0
        }
        figures.bytesSent = report?.udpBytesSent ?? figures.bytesSent
        figures.bytesReceived = report?.udpBytesReceived ?? figures.bytesReceived
        figures.take(ReceiveTotals(records.flatMap(\.streams)))
        workers[worker] = figures
    }
}

extension LiveFigures.Worker {
    /// The receive counters from a worker's running totals.
    mutating func take(_ received: ReceiveTotals) {
        (packetsExpected, packetsLostFirstPass, nacks, plis) = (received.packetsExpected, received.packetsLostFirstPass, received.nacks, received.plis)
        (videoFrames, freezes) = (received.videoFrames, received.freezes)
    }
}
