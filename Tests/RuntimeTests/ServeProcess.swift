import Foundation
import WebRTCTestKit
import XCTest

/// `rtcswarm serve` on a kernel-chosen loopback port, for tests that need the room server
/// as its own process (to kill it, or to run it under a descriptor limit): started, its
/// port read from the banner, and SIGKILLed when the test lets go of it.
final class ServeProcess {
    private let process = Process()
    let port: UInt16
    var pid: Int32 { process.processIdentifier }

    /// - Parameters:
    ///   - arguments: `serve` options beyond `--listen 127.0.0.1:0`.
    ///   - descriptorLimit: an `ulimit -n` to run it under.
    init(arguments: [String] = [], descriptorLimit: Int? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let binary = ExternalTool.repositoryRoot.appendingPathComponent(".build/debug/rtcswarm").path
        let serve = ["serve", "--listen", "127.0.0.1:0"] + arguments
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", (descriptorLimit.map { "ulimit -n \($0) && " } ?? "") + #"exec "$0" "$@""#, binary] + serve
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var banner = ""
        while !banner.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        guard let port = banner.components(separatedBy: "http://127.0.0.1:").dropFirst().first.flatMap({ UInt16($0.prefix { $0.isNumber }) }) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTFail("serve printed: \(banner)", file: file, line: line)
            throw XCTSkip("rtcswarm serve did not start")
        }
        self.port = port
    }

    deinit { stop() }

    private func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
