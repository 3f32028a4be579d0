import Foundation

/// An outside program driven with one JSON object per line: written to its standard
/// input, read from its standard output. Standard error is kept apart for diagnostics.
/// The process is terminated when this object goes away, if it has not exited.
public final class JSONLinesProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let condition = NSCondition()
    private var pending = Data()
    private var lines: [Data] = []
    private var outputClosed = false
    private var errorText = Data()
    private var errorsClosed = false

    /// Writing to a program that has exited must fail with EPIPE, not kill the test run.
    private static let ignoreBrokenPipe: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    public init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws {
        Self.ignoreBrokenPipe
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Blocking reads on threads of their own: an empty read is the end of output.
        Self.drain(output.fileHandleForReading) { [weak self] chunk in self?.received(chunk) }
        Self.drain(errors.fileHandleForReading) { [weak self] chunk in
            guard let self else { return }
            self.condition.lock()
            self.errorText.append(chunk)
            if chunk.isEmpty { self.errorsClosed = true }
            self.condition.broadcast()
            self.condition.unlock()
        }
    }

    private static func drain(_ handle: FileHandle, _ deliver: @escaping @Sendable (Data) -> Void) {
        Thread {
            while true {
                let chunk = handle.availableData
                deliver(chunk)
                if chunk.isEmpty { return }
            }
        }.start()
    }

    deinit { stop() }

    private func received(_ chunk: Data) {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        if chunk.isEmpty {
            outputClosed = true
            return
        }
        pending.append(chunk)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = pending[pending.startIndex..<newline]
            if !line.isEmpty { lines.append(Data(line)) }
            pending = Data(pending[(newline + 1)...])
        }
    }

    /// Writes `message` as one line on its standard input.
    public func send(_ message: [String: Any]) throws {
        var data = try JSONSerialization.data(withJSONObject: message, options: [.sortedKeys])
        data.append(UInt8(ascii: "\n"))
        try input.fileHandleForWriting.write(contentsOf: data)
    }

    /// The next line of standard output, decoded as a JSON object; nil when nothing came
    /// within `timeout` seconds or the program closed its output.
    public func next(timeout: TimeInterval) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if !lines.isEmpty {
                let line = lines.removeFirst()
                if let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] { return object }
                continue
            }
            if outputClosed || !condition.wait(until: deadline) { return nil }
        }
    }

    /// The next line whose `"type"` is one of `types` (others are skipped), or nil.
    public func next(ofType types: Set<String>, timeout: TimeInterval) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while let message = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if let type = message["type"] as? String, types.contains(type) { return message }
        }
        return nil
    }

    /// What it wrote on standard error so far.
    public var standardError: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: errorText, as: UTF8.self)
    }

    public var isRunning: Bool { process.isRunning }

    /// Waits up to `timeout` seconds for it to exit by itself; its status, or nil. Once it
    /// returns a status, `standardError` holds all it wrote there: the reading thread may
    /// see the end of the pipe after the exit, so this waits for that too.
    public func wait(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else { return nil }
        condition.lock()
        while !errorsClosed, condition.wait(until: deadline) {}
        condition.unlock()
        return process.terminationStatus
    }

    /// Terminates it if it still runs, and closes its pipes.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? input.fileHandleForWriting.close()
    }
}
