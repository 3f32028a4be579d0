import Report

extension LiveFigures {
    /// Takes in what a worker sent: its latest sample, or an ended peer's record.
    mutating func observe(_ message: WorkerMessage, from worker: Int) {
        if let record = message.peer { ended(record) }
        guard let sample = message.sample else { return }
        var figures = Worker()
        (figures.connecting, figures.connected, figures.failed, figures.lagP99Ms) = (sample.connecting, sample.connected, sample.failed, sample.lagP99Ms)
        (figures.bytesSent, figures.bytesReceived) = (sample.bytesSent, sample.bytesReceived)
        if let receive = sample.receive {
            (figures.packetsExpected, figures.packetsLostFirstPass) = (receive.packetsExpected, receive.packetsLostFirstPass)
            (figures.nacks, figures.videoFrames) = (receive.nacks, receive.videoFrames)
        }
        workers[worker] = figures
    }
}
