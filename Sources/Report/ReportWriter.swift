import Foundation

/// Writes the five report files into a run's folder: `report.json`, `junit.xml`,
/// `summary.md`, `report.html` (and `peers.ndjson`, which `PeerLog` streams during the run).
public enum ReportWriter {
    public static let files = ["report.json", "junit.xml", "summary.md", "report.html"]

    public static func write(_ report: RunReport, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try encode(report).write(to: folder.appendingPathComponent("report.json"))
        try Data(JUnitReport.render(report).utf8).write(to: folder.appendingPathComponent("junit.xml"))
        try Data(MarkdownSummary.render(report).utf8).write(to: folder.appendingPathComponent("summary.md"))
        try Data(HTMLReport.render(report).utf8).write(to: folder.appendingPathComponent("report.html"))
    }

    public static func encode(_ report: RunReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(report)
    }

    /// Reads a `report.json` (or the folder holding one), refusing other schema versions.
    public static func read(_ path: String) throws -> RunReport {
        var url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            url.appendPathComponent("report.json")
        }
        let data = try Data(contentsOf: url)
        struct Version: Decodable { let schemaVersion: Int }
        let version = try JSONDecoder().decode(Version.self, from: data).schemaVersion
        guard version == RunReport.currentSchemaVersion else {
            throw ReportError("\(url.path) has schema version \(version); this rtcswarm reads version \(RunReport.currentSchemaVersion)")
        }
        return try JSONDecoder().decode(RunReport.self, from: data)
    }
}

/// A report that cannot be read, merged or compared, with the reason.
public struct ReportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
