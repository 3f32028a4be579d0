import Foundation
import WebRTCTestKit
import XCTest

/// `run --metrics-listen`: the coordinator serves OpenMetrics text while the run goes on.
final class MetricsListenTests: XCTestCase {
    private func scrape(_ port: UInt16) -> HTTPGet.Answer? { HTTPGet.fetch("http://127.0.0.1:\(port)/metrics") }

    /// The value of the sample whose line starts with `prefix`.
    private func value(_ prefix: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    func testARunServesPeersAndPacketCountersThatGrowWhileItGoesOn() throws {
        let port = try LoopbackPort.free(SOCK_STREAM)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = ShardRunTests.binary
        process.arguments = ["run", "Scenarios/quickstart.json5", "--set", "duration_s=6", "--set", "groups[0].count=3",
                             "--set", "groups[0].media.video.resolution=160x90", "--workers", "1",
                             "--metrics-listen", "127.0.0.1:\(port)", "--out", folder.path]
        process.currentDirectoryURL = ExternalTool.repositoryRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() }; process.waitUntilExit() }
        // Two scrapes a second and a half apart once the three calls are up.
        var scrapes: [String] = []
        let deadline = Date().addingTimeInterval(5)
        let connected = #"rtcswarm_peers{scenario="quickstart",cell="default",shard="0/1",group="calls",state="connected"}"#
        while scrapes.count < 2 && Date() < deadline {
            if let answer = scrape(port), answer.status == 200, value(connected, in: answer.body) == 6 {
                XCTAssertEqual(answer.contentType, "application/openmetrics-text; version=1.0.0; charset=utf-8")
                scrapes.append(answer.body)
                Thread.sleep(forTimeInterval: 1.5)
                continue
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertEqual(scrapes.count, 2, "six peers connected, scraped twice")
        guard scrapes.count == 2 else { return }
        let labels = #"{scenario="quickstart",cell="default",shard="0/1"}"#
        for counter in ["rtcswarm_udp_sent_bytes_total", "rtcswarm_rtp_packets_expected_total", "rtcswarm_video_frames_received_total"] {
            let (first, second) = (value(counter + labels, in: scrapes[0]) ?? -1, value(counter + labels, in: scrapes[1]) ?? -1)
            XCTAssertGreaterThan(first, 0, counter)
            XCTAssertGreaterThan(second, first, "\(counter) grows while the calls go on")
        }
        let group = #"{scenario="quickstart",cell="default",shard="0/1",group="calls"}"#
        XCTAssertEqual(value("rtcswarm_setup_seconds_count" + group, in: scrapes[1]), 0, "no peer has ended yet (the group's series is there at 0)")
        XCTAssertTrue(scrapes[1].hasSuffix("# EOF\n"))
    }
}
