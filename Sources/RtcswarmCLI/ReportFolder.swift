import Foundation
import Report
import RTCBase
import Scenario

/// Where a run writes its files: `--out DIR`, or `Reports/<name>-<UTC timestamp>/`.
public struct ReportFolder {
    public let url: URL

    /// Creates the folder (and parents). The name is made safe in a path (`Scenario.folderSafeName`);
    /// the timestamp is UTC, sortable, and safe in paths.
    public init(name: String, out: String?, root: String = "Reports", now: Date = Date()) throws {
        if let out {
            url = URL(fileURLWithPath: out)
        } else {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            url = URL(fileURLWithPath: root).appendingPathComponent("\(Scenario.folderSafeName(name))-\(formatter.string(from: now))")
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ReportError("cannot create the report folder \(url.path): \(FileProblem.describe(error))")
        }
    }

    /// Writes `value` as pretty, key-sorted JSON, whole or not at all (`AtomicFile`).
    public func writeJSON<Value: Encodable>(_ value: Value, to name: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.replace(url.appendingPathComponent(name), with: try encoder.encode(value))
    }

    public func writeText(_ text: String, to name: String) throws {
        try AtomicFile.replace(url.appendingPathComponent(name), with: Data(text.utf8))
    }
}
