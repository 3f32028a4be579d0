import Foundation
import XCTest

/// Software nobody here wrote that a test runs against (docker-compose, coturn, Janus,
/// aiortc's venv, Chromium). A test skips with a printed reason when it is absent, except
/// under `CI=true`, where `.ci/run` installed it: there, absent means failed.
public enum ExternalTool {
    /// Whether this run is CI's (`CI=true`).
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The executable `name` on PATH (or at an absolute path), or nil.
    public static func find(_ name: String) -> URL? {
        if name.hasPrefix("/") {
            return FileManager.default.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// The executable, or an XCTSkip naming what is missing and how to install it; under
    /// CI an absent tool records a failure before skipping, so CI cannot go green without it.
    public static func require(_ name: String, installHint: String,
                               file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        if let url = find(name) { return url }
        throw absent(name, installHint: installHint, file: file, line: line)
    }

    /// The file at `path` (a package's source, a built helper), or the skip `require`
    /// gives for an absent tool.
    public static func requireFile(_ path: String, installHint: String,
                                   file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        if FileManager.default.fileExists(atPath: path) { return URL(fileURLWithPath: path) }
        throw absent(path, installHint: installHint, file: file, line: line)
    }

    /// The skip for something not installed, printed; under CI a failure first.
    private static func absent(_ name: String, installHint: String, file: StaticString, line: UInt) -> XCTSkip {
        let reason = "\(name) is not installed (\(installHint))"
        if isCI { XCTFail("CI=true and \(reason): .ci/run installs it, so its absence is a failure", file: file, line: line) }
        print("skipped: \(reason)")
        return XCTSkip(reason)
    }

    /// Runs a tool to completion and returns its exit status and combined output.
    public static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The checkout's top folder (where Package.swift is).
    public static let repositoryRoot: URL = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
}
