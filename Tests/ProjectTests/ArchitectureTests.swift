import Foundation
import WebRTCTestKit
import XCTest

/// ARCHITECTURE.md's one rule, checked on every run: protocol targets never touch
/// sockets, clocks or threads, and nothing below Runtime imports EventLoop.
final class ArchitectureTests: XCTestCase {
    static let sansIOTargets = ["RTCBase", "SDP", "STUN", "ICE", "DTLS", "SRTP", "RTP", "RTPSession", "SCTP", "PeerCore", "Net",
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

    /// docs/architecture.md lists the targets lowest first; each may import only those
    /// listed before it, and every target in Sources/ must be listed.
    func testNoTargetImportsOneListedAfterItInDocsArchitecture() throws {
        let page = try String(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let table = page.components(separatedBy: "## Targets, lowest first")[1].components(separatedBy: "\n## ")[0]
        let nameCell = try NSRegularExpression(pattern: "`([A-Za-z0-9]+)`")
        var order: [String: Int] = [:]
        for (row, line) in table.split(separator: "\n").filter({ $0.hasPrefix("| `") }).enumerated() {
            let cell = String(line.split(separator: "|")[0])
            for match in nameCell.matches(in: cell, range: NSRange(cell.startIndex..., in: cell)) {
                order[(cell as NSString).substring(with: match.range(at: 1))] = row
            }
        }
        let sources = ExternalTool.repositoryRoot.appendingPathComponent("Sources")
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        for target in targets {
            let rank = try XCTUnwrap(order[target], "Sources/\(target) is not in docs/architecture.md's table")
            for file in swiftFiles(in: target) {
                let text = try String(contentsOf: file, encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("import ") {
                    let imported = String(line.dropFirst("import ".count))
                    guard let importedRank = order[imported] else { continue }
                    XCTAssertLessThanOrEqual(importedRank, rank, "\(target)/\(file.lastPathComponent) imports \(imported), listed after it")
                }
            }
        }
        XCTAssertGreaterThan(order.count, 20, "the table must actually be read")
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

    /// Runtime stays readable by its parts: folders by job (Hosting, Calls, Fanout,
    /// Orchestration, Browsers), no file over 250 lines.
    func testRuntimeFilesAreInTheirJobsFoldersAndSmall() throws {
        let runtime = ExternalTool.repositoryRoot.appendingPathComponent("Sources/Runtime")
        let folders = Set(["Hosting", "Calls", "Fanout", "Orchestration", "Browsers"])
        let files = swiftFiles(in: "Runtime")
        XCTAssertGreaterThan(files.count, 40, "the check must actually read the sources")
        for file in files {
            let relative = String(file.path.dropFirst(runtime.path.count + 1))
            XCTAssertTrue(folders.contains(String(relative.split(separator: "/").first ?? "")), "\(relative) is in no job's folder")
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count
            XCTAssertLessThanOrEqual(lines, 251, "\(relative) has \(lines) lines")
        }
    }
}
