import Foundation
import RTCBase

/// Writes the five report files into a run's folder: `report.json`, `junit.xml`,
/// `summary.md`, `report.html` (and `peers.ndjson`, which `PeerLog` streams during the run).
///
/// Each file is written under a temporary name in the same folder and renamed over the
/// old one, so a reader (or the next `report compare`) finds the whole file or none,
/// never a truncated one; a file that cannot be written does not stop the others.
public enum ReportWriter {
    public static let files = ["report.json", "junit.xml", "summary.md", "report.html"]

    /// Throws `ReportWriteFailure` naming every file that could not be written.
    public static func write(_ report: RunReport, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let renderings: [(String, () throws -> Data)] = [
            ("report.json", { try encode(report) }),
            ("junit.xml", { Data(JUnitReport.render(report).utf8) }),
            ("summary.md", { Data(MarkdownSummary.render(report).utf8) }),
            ("report.html", { Data(HTMLReport.render(report).utf8) }),
        ]
        var failures: [ReportWriteFailure.File] = []
        for (name, render) in renderings {
            do {
                try AtomicFile.replace(folder.appendingPathComponent(name), with: try render())
            } catch {
                failures.append(.init(name: name, reason: AtomicFile.reason(error)))
            }
        }
        if !failures.isEmpty { throw ReportWriteFailure(folder: folder.path, files: failures) }
    }

    public static func encode(_ report: RunReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(report)
    }

    /// The run's folder `path` names: the folder itself, or the one holding a `report.json` named.
    public static func folder(of path: String) -> URL {
        var isDirectory: ObjCBool = false
        let url = URL(fileURLWithPath: path)
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        return exists && !isDirectory.boolValue ? url.deletingLastPathComponent() : url
    }

    /// Reads a `report.json` (or the folder holding one), refusing other schema versions.
    public static func read(_ path: String) throws -> RunReport {
        var url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            url.appendPathComponent("report.json")
        }
        do {
            let data = try Data(contentsOf: url)
            struct Version: Decodable { let schemaVersion: Int }
            let version = try JSONDecoder().decode(Version.self, from: data).schemaVersion
            guard version == RunReport.currentSchemaVersion else {
                throw ReportError("\(url.path) has schema version \(version); this rtcswarm reads version \(RunReport.currentSchemaVersion)")
            }
            return try JSONDecoder().decode(RunReport.self, from: data)
        } catch let error as ReportError {
            throw error
        } catch {
            throw ReportError("\(url.path): \(FileProblem.describe(error))")
        }
    }
}

/// A report that cannot be read, merged or compared, with the reason.
public struct ReportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Report files that could not be written (a full disk, a read-only folder), each with
/// the system's reason; the files not listed were written whole.
public struct ReportWriteFailure: Error, CustomStringConvertible {
    public struct File: Equatable, Sendable {
        public let name: String
        public let reason: String
    }

    public let folder: String
    public let files: [File]

    public var description: String {
        "could not write " + files.map { "\($0.name) (\($0.reason))" }.joined(separator: ", ") + " in \(folder)"
    }
}
