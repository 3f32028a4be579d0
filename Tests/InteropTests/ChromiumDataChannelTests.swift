import Foundation
import Report
import WebRTCTestKit
import XCTest

/// rtcswarm's peer and headless Chromium open a data channel each (RFC 8831/8832) through
/// the built-in room server's `/peer` page, in both offer directions: messages of 1 B,
/// 1 KB, 16 KB, 64 KB and a string echo byte for byte both ways, and rtcswarm's message
/// counts on each channel equal Chromium's `RTCDataChannelStats` exactly (issue 20).
///
/// Chromium must run in a network namespace that has only `lo` (TARGETS.md), and the call
/// is over loopback, so the test runs itself again inside one (`unshare --net`): that run,
/// told by `RTCSWARM_DC_CALL_OUT`, makes the call and writes its figures there as JSON.
final class ChromiumDataChannelTests: XCTestCase {
    func testRtcswarmOffersAndBothSidesOpenChannelsThatEchoEverySize() throws {
        try call(rtcswarmOffers: true, test: "testRtcswarmOffersAndBothSidesOpenChannelsThatEchoEverySize")
    }

    func testChromiumOffersAndBothSidesOpenChannelsThatEchoEverySize() throws {
        try call(rtcswarmOffers: false, test: "testChromiumOffersAndBothSidesOpenChannelsThatEchoEverySize")
    }

    private func call(rtcswarmOffers: Bool, test: String) throws {
        let environment = ProcessInfo.processInfo.environment
        if let out = environment["RTCSWARM_DC_CALL_OUT"] {
            let log = URL(fileURLWithPath: out + ".chromium.log")
            let figures = try ChromiumDataChannelCall(rtcswarmOffers: rtcswarmOffers, log: log).run()
            try JSONEncoder().encode(figures).write(to: URL(fileURLWithPath: out))
            return
        }
        let cell = InteropRecorder.cell(self, target: "Chromium", version: TargetVersion.chromium,
                                        role: rtcswarmOffers ? "data channels both ways via /peer (rtcswarm offers)"
                                            : "data channels both ways via /peer (Chromium offers)",
                                        codec: "data channel")
        let figures = try runInsideNamespace(test: test)
        let ours = figures.ours, theirs = figures.theirs
        let browser = figures.browser
        let atChromium = (ours: try XCTUnwrap(browser.dataChannel("from-rtcswarm"), "\(browser.dataChannels ?? [])"),
                          theirs: try XCTUnwrap(browser.dataChannel("from-chromium"), "\(browser.dataChannels ?? [])"))
        print("Chromium \(browser.userAgent)\n  rtcswarm's section: \(figures.applicationSection.replacingOccurrences(of: "\r\n", with: " | "))")
        for (name, mine, other) in [("from-rtcswarm", ours, atChromium.ours), ("from-chromium", theirs, atChromium.theirs)] {
            print("  \(name) (stream \(mine.id)): open \(String(format: "%.1f", mine.openMs)) ms at rtcswarm, "
                  + "\(String(format: "%.1f", other.openMs ?? -1)) ms at Chromium; rtcswarm sent \(mine.messagesSent) (\(mine.bytesSent) B) "
                  + "received \(mine.messagesReceived) (\(mine.bytesReceived) B); Chromium sent \(other.messagesSent ?? -1) "
                  + "(\(other.bytesSent ?? -1) B) received \(other.messagesReceived ?? -1) (\(other.bytesReceived ?? -1) B)")
        }
        cell.measured(setupMs: ours.openMs)
        let count = ChromiumDataChannelCall.messages.count
        let bytes = ChromiumDataChannelCall.messages.map(\.bytes.count).reduce(0, +)
        XCTAssertEqual(figures.echoesIntact, count, "every message rtcswarm sent came back byte for byte, in order")
        XCTAssertEqual(figures.echoesCorrupt, 0)
        XCTAssertEqual(atChromium.theirs.echoesIntact, count, "every message Chromium sent came back byte for byte, in order")
        XCTAssertEqual(atChromium.theirs.echoesCorrupt, 0)
        // The two channels: rtcswarm sent and received what it meant to, and Chromium
        // counted the same messages, exactly.
        XCTAssertEqual([ours.messagesSent, ours.messagesReceived, theirs.messagesSent, theirs.messagesReceived], [count, count, count, count])
        XCTAssertEqual(atChromium.ours.messagesReceived, ours.messagesSent)
        XCTAssertEqual(atChromium.ours.messagesSent, ours.messagesReceived)
        XCTAssertEqual(atChromium.theirs.messagesSent, theirs.messagesReceived)
        XCTAssertEqual(atChromium.theirs.messagesReceived, theirs.messagesSent)
        XCTAssertEqual([ours.bytesSent, theirs.bytesReceived], [bytes, bytes])
        XCTAssertEqual(atChromium.ours.bytesReceived, ours.bytesSent)
        XCTAssertEqual(atChromium.theirs.bytesSent, theirs.bytesReceived)
        // Stream ids (RFC 8832 6): the DTLS client opens even ones, the server odd ones.
        XCTAssertEqual(atChromium.ours.id, ours.id)
        XCTAssertEqual(atChromium.theirs.id, theirs.id)
        XCTAssertNotEqual(ours.id % 2, theirs.id % 2, "one side's channel is even, the other's odd")
        XCTAssertGreaterThanOrEqual(ours.openMs, 0)
        XCTAssertGreaterThanOrEqual(theirs.openMs, 0)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(atChromium.theirs.openMs, "Chromium timed its channel's open"), 0)
        // RFC 8841 4, 5, 6: the section Chromium took.
        let section = figures.applicationSection.components(separatedBy: "\r\n")
        XCTAssertTrue(section[0].hasPrefix("m=application ") && section[0].hasSuffix(" UDP/DTLS/SCTP webrtc-datachannel"), section[0])
        XCTAssertTrue(section.contains("a=sctp-port:5000"), "\(section)")
        XCTAssertTrue(section.contains("a=max-message-size:262144"), "\(section)")
    }

    /// Runs `test` again in a fresh network namespace with only `lo`, and reads its figures.
    private func runInsideNamespace(test: String) throws -> ChromiumDataChannelCall.Figures {
        _ = try ExternalTool.require("chromium", installHint: "apt-get install chromium")
        let unshare = try ExternalTool.require("unshare", installHint: "apt-get install util-linux")
        _ = try ExternalTool.require("ip", installHint: "apt-get install iproute2")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("dc-chromium-\(UUID().uuidString).json").path
        defer {
            try? FileManager.default.removeItem(atPath: out)
            try? FileManager.default.removeItem(atPath: out + ".chromium.log")
        }
        let command = "ip link set lo up && exec env RTCSWARM_DC_CALL_OUT=\(out) \(executable) InteropTests.ChromiumDataChannelTests/\(test)"
        let result = try ExternalTool.run(unshare, ["--net", "--fork", "sh", "-c", command])
        let log = (try? String(contentsOfFile: out + ".chromium.log", encoding: .utf8)) ?? "(no log)"
        guard result.status == 0, let data = FileManager.default.contents(atPath: out) else {
            throw ExternalToolError("the call inside the namespace failed (exit \(result.status)): \(result.output.suffix(2500))\n"
                                    + "Chromium: \(log.suffix(1500))")
        }
        return try JSONDecoder().decode(ChromiumDataChannelCall.Figures.self, from: data)
    }
}
