import Foundation

/// Chromium (Debian's `chromium`) run headless inside a fresh network namespace that has
/// only `lo`, so that nothing it does can leave the machine (TARGETS.md).
public enum HeadlessChromium {
    public static func binary() throws -> URL {
        try ExternalTool.require("chromium", installHint: "apt-get install chromium")
    }

    /// Renders `page` (a file) and writes a PNG screenshot; returns Chromium's output.
    @discardableResult
    public static func screenshot(of page: URL, to png: URL, width: Int = 1400, height: Int = 2200) throws -> String {
        let result = try run(page, ["--screenshot=\(png.path)", "--window-size=\(width),\(height)"])
        if result.status != 0 || !FileManager.default.fileExists(atPath: png.path) {
            throw ExternalToolError("chromium could not render \(page.lastPathComponent) (exit \(result.status)): \(result.output.suffix(600))")
        }
        return result.output
    }

    /// Loads `page` (a file), lets its scripts run, and returns the document as they left
    /// it (with Chromium's own messages around it).
    public static func dumpDOM(of page: URL) throws -> String {
        let result = try run(page, ["--dump-dom"])
        guard result.status == 0 else {
            throw ExternalToolError("chromium could not load \(page.lastPathComponent) (exit \(result.status)): \(result.output.suffix(600))")
        }
        return result.output
    }

    private static func run(_ page: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let chromium = try binary()
        let unshare = try ExternalTool.require("unshare", installHint: "apt-get install util-linux")
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let command = [
            "ip link set lo up;",
            "exec", chromium.path, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run", "--user-data-dir=\(profile.path)",
        ] + arguments + [page.absoluteString]
        return try ExternalTool.run(unshare, ["--net", "--fork", "sh", "-c", command.joined(separator: " ")])
    }
}

/// An external program that ran but did not do its job.
public struct ExternalToolError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
