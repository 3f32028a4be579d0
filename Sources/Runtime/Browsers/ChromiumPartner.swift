import Foundation
import Scenario

/// Headless Chromium on one of rtcswarm's pages, its fake camera set to the size and rate
/// asked for: the callee of a `pair` group's calls (`partner: "chromium"`, the built-in
/// room server's `/peer` page with the group's rooms), or a group's own peers
/// (`client: "chromium"`, `BrowserCohort`). Its output goes to `chromium-g<N>.log` in the
/// report folder.
///
/// Chromium gathers every interface of the machine as ICE candidates; run rtcswarm in a
/// network namespace that has only `lo` (`unshare --net`) to keep the calls on loopback.
final class ChromiumPartner {
    private let process: Process
    private let profile: URL

    /// Flags for an unattended browser that calls over loopback (TARGETS.md): fake camera
    /// and microphone granted without a prompt, loopback candidates allowed and not hidden
    /// behind mDNS names, no name resolution and no background traffic; without
    /// `webSecurity` a `file://` page may POST to any server (not every WHEP server sends
    /// CORS headers).
    static func arguments(profile: URL, fps: Int, page: String, webSecurity: Bool = true) -> [String] {
        (webSecurity ? [] : ["--disable-web-security"]) + [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--use-fake-device-for-media-stream=fps=\(fps)",
            "--use-fake-ui-for-media-stream", "--allow-loopback-in-peer-connection",
            "--disable-features=WebRtcHideLocalIpsWithMdns", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--autoplay-policy=no-user-gesture-required",
            "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
            "--enable-logging=stderr", "--user-data-dir=\(profile.path)", page,
        ]
    }

    /// The page's address for `group`'s calls on the built-in server at `port`.
    static func pageURL(port: UInt16, rooms: [String], group: PeerGroup, scenario: Scenario, groupIndex: Int) throws(TargetError) -> String {
        var query = ["rooms=\(rooms.joined(separator: ","))",
                     "other_joined=\(scenario.target.otherJoinedEvent)"]
        if case .video(_, let size, let fps, _, _, _) = try WorkerRun.videoTrack(group, target: scenario.target, groupIndex: groupIndex) {
            query += ["width=\(size.width)", "height=\(size.height)", "fps=\(fps)"]
        } else {
            query.append("video=0")
        }
        if WorkerRun.audioTrack(group) == nil { query.append("audio=0") }
        return "http://127.0.0.1:\(port)/peer?" + query.joined(separator: "&")
    }

    /// The browser: `RTCSWARM_CHROMIUM`, else the first of the usual names on PATH.
    static func executable() throws(TargetError) -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["RTCSWARM_CHROMIUM"] { return URL(fileURLWithPath: path) }
        let directories = (environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init)
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return URL(fileURLWithPath: "\(directory)/\(name)")
            }
        }
        throw TargetError("partner or client \"chromium\" needs Chromium: apt-get install chromium, or set RTCSWARM_CHROMIUM to its path")
    }

    /// Starts the browser on `page`; it runs until `stop()`.
    init(page: String, fps: Int, log: URL, webSecurity: Bool = true) throws(TargetError) {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("rtcswarm-chromium-\(UUID().uuidString)")
        process = Process()
        do {
            process.executableURL = try Self.executable()
            process.arguments = Self.arguments(profile: profile, fps: fps, page: page, webSecurity: webSecurity)
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let output = try FileHandle(forWritingTo: log)
            process.standardOutput = output
            process.standardError = output
            try process.run()
        } catch let error as TargetError {
            throw error
        } catch {
            throw TargetError("cannot start Chromium (\(process.executableURL?.path ?? "?")): \(error.localizedDescription)")
        }
    }

    /// Ends the browser (SIGTERM, then SIGKILL after 3 s) and removes its profile.
    func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(3)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: profile)
    }
}
