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
        let chromium = try binary()
        let unshare = try ExternalTool.require("unshare", installHint: "apt-get install util-linux")
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let command = [
            "ip link set lo up;",
            "exec", chromium.path, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run", "--user-data-dir=\(profile.path)",
            "--screenshot=\(png.path)", "--window-size=\(width),\(height)", page.absoluteString,
        ].joined(separator: " ")
        let result = try ExternalTool.run(unshare, ["--net", "--fork", "sh", "-c", command])
        if result.status != 0 || !FileManager.default.fileExists(atPath: png.path) {
            throw ExternalToolError("chromium could not render \(page.lastPathComponent) (exit \(result.status)): \(result.output.suffix(600))")
        }
        return result.output
    }
}

/// An external program that ran but did not do its job.
public struct ExternalToolError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
