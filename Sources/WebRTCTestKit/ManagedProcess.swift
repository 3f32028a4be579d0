import Foundation

/// A server or peer that a test starts and must stop: output collected, its first line
/// available (servers print their port), terminated at the end of the test.
public final class ManagedProcess: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let lock = NSLock()
    private var buffer = Data()

    public init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            guard let self, !chunk.isEmpty else { return }
            self.lock.lock()
            self.buffer.append(chunk)
            self.lock.unlock()
        }
        try process.run()
    }

    deinit { stop() }

    /// Everything it printed so far (standard output and error together).
    public var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: buffer, as: UTF8.self)
    }

    public var isRunning: Bool { process.isRunning }

    /// The first line it prints, waiting up to `timeout` seconds.
    public func firstLine(timeout: TimeInterval = 15) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            // One snapshot: output read twice could gain its newline between the reads
            // and hand back a line cut short.
            let printed = text
            if let end = printed.firstIndex(of: "\n") { return String(printed[..<end]) }
            if !process.isRunning { return nil }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }

    /// Waits for it to exit by itself; returns its status, or nil on timeout.
    public func wait(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { return nil }
        Thread.sleep(forTimeInterval: 0.05)  // let the last output arrive
        return process.terminationStatus
    }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        output.fileHandleForReading.readabilityHandler = nil
    }
}
