import EventLoop
import Foundation
import RTCBase
#if canImport(Glibc)
import Glibc
#endif

/// A child `rtcswarm worker` process running one worker's share of a cell; its standard
/// output (one `WorkerMessage` per line) is read on the coordinator's loop.
final class WorkerProcess {
    let index: Int
    private let process = Process()
    private var reader: LineReader?
    var onMessage: (WorkerMessage) -> Void = { _ in }
    /// The child ended its output (normally right after its result).
    var onEnd: () -> Void = {}
    /// Lines of its output that were not worker messages (something else wrote to its
    /// standard output), and the first of them, for the report's warnings.
    private(set) var garbledLines = 0
    private(set) var firstGarbledLine: String?

    init(index: Int, executable: URL, arguments: [String], loop: EventLoop) throws {
        self.index = index
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let reader = try LineReader(loop: loop, fd: dup(output.fileHandleForReading.fileDescriptor))
        try? output.fileHandleForReading.close()
        reader.onLine = { [weak self] line in
            guard let self, !line.isEmpty else { return }
            if let message = try? JSONDecoder().decode(WorkerMessage.self, from: Data(line.utf8)) {
                self.onMessage(message)
            } else {
                self.garbledLines += 1
                self.firstGarbledLine = self.firstGarbledLine ?? String(line.prefix(200))
            }
        }
        reader.onEnd = { [weak self] in self?.onEnd() }
        self.reader = reader
    }

    /// Asks the child to stop politely (it reports what ran).
    func interrupt() { if process.isRunning { Glibc.kill(process.processIdentifier, SIGTERM) } }

    /// Ends a child that did not finish in time.
    func forceStop() { if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) } }

    /// "worker 1 wrote 3 line(s) that were not worker messages, the first: ..." or nil.
    var garbledWarning: String? {
        guard garbledLines > 0 else { return nil }
        return "worker \(index) wrote \(garbledLines) line(s) that were not worker messages, the first: \(firstGarbledLine ?? "")"
    }

    var exitStatus: Int32? {
        process.isRunning ? nil : process.terminationStatus
    }

    /// How the child ended, for a reason in the report ("died (signal 9)"). Called once
    /// its output has ended: the exit follows within moments, waited for up to a second.
    func endDescription() -> String {
        for _ in 0..<200 where process.isRunning { usleep(5_000) }
        if process.isRunning { return "closed its output without a result" }
        switch process.terminationReason {
        case .uncaughtSignal: return "died (signal \(process.terminationStatus))"
        case .exit: return "exited with status \(process.terminationStatus) without a result"
        @unknown default: return "ended without a result"
        }
    }
}
