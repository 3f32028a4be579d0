import Foundation

/// Captured protocol exchanges in `Tests/Fixtures` (SDP, HTTP, JSON from SRS, Janus,
/// Chromium and aiortc), found relative to this source file so tests run from any folder.
public enum Fixtures {
    /// The folder `Tests/Fixtures` of this checkout.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures")

    /// The bytes of `Tests/Fixtures/<path>`, e.g. `bytes("srs/publish.response.http")`.
    public static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(path)))
    }

    /// The text of `Tests/Fixtures/<path>`, exactly as captured (CRLF kept).
    public static func text(_ path: String) throws -> String {
        String(decoding: try bytes(path), as: UTF8.self)
    }
}
