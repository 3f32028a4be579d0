import Foundation
import WebRTCTestKit
import XCTest

/// ARCHITECTURE.md's one rule, checked on every run: protocol targets never touch
/// sockets, clocks or threads, and nothing below Runtime imports EventLoop.
final class ArchitectureTests: XCTestCase {
    static let sansIOTargets = ["RTCBase", "SDP", "STUN", "ICE", "DTLS", "SRTP", "RTP", "RTPSession", "PeerCore", "Net",
                                "Signaling", "RoomServer", "Media", "Impairment", "Metrics"]
    static let allowedEventLoopImporters: Set<String> = ["EventLoop", "Runtime", "RtcswarmCLI", "Benchmarks", "rtcswarm"]

    private func swiftFiles(in target: String) -> [URL] {
        let folder = ExternalTool.repositoryRoot.appendingPathComponent("Sources/\(target)")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "swift" }
    }

    func testSansIOTargetsNeverTouchSocketsClocksOrThreads() throws {
        let forbidden = try NSRegularExpression(pattern:
            #"\b(socket|bind|recvfrom|sendto|epoll_[a-z]+|clock_gettime|usleep|nanosleep)\(|DispatchQueue|Thread\(|Task \{|Task\.detached|Date\(\)|ContinuousClock|DispatchTime"#)
        var checked = 0
        for target in Self.sansIOTargets {
            for file in swiftFiles(in: target) {
                let text = try String(contentsOf: file, encoding: .utf8)
                checked += 1
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                    where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    let range = NSRange(line.startIndex..., in: line)
                    XCTAssertNil(forbidden.firstMatch(in: String(line), range: range),
                                 "\(target)/\(file.lastPathComponent):\(number + 1) touches the world: \(line)")
                }
            }
        }
        XCTAssertGreaterThan(checked, 100, "the check must actually read the sources")
    }

    func testOnlyRuntimeAndAboveImportEventLoop() throws {
        let sources = ExternalTool.repositoryRoot.appendingPathComponent("Sources")
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path) where !Self.allowedEventLoopImporters.contains(target) {
            for file in swiftFiles(in: target) {
                let text = try String(contentsOf: file, encoding: .utf8)
                XCTAssertFalse(text.contains("import EventLoop"), "\(target)/\(file.lastPathComponent) imports EventLoop")
            }
        }
    }
}
