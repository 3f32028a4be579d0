import Foundation

/// The folder of interop result files (one `*.json` per test): written by
/// `WebRTCTestKit.InteropRecorder`, read by `rtcswarm interop-matrix`.
public enum InteropResultsFolder {
    /// Every readable result, and for each `*.json` that is not one, "file: why".
    public struct Contents: Sendable {
        public var results: [InteropResult]
        public var unreadable: [String]
    }

    /// Reads every `*.json` in `folder`, in name order. Throws only when the folder itself
    /// cannot be listed; a corrupt file is reported in `unreadable` and skipped.
    public static func read(_ folder: URL) throws -> Contents {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ReportError("\(folder.path) is not a folder of interop results")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        var contents = Contents(results: [], unreadable: [])
        for name in names {
            do {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                contents.results.append(try JSONDecoder().decode(InteropResult.self, from: data))
            } catch {
                contents.unreadable.append("\(name): \(Self.describe(error))")
            }
        }
        return contents
    }

    /// Writes `result` as `<name>.json` in `folder` (created if needed), pretty-printed.
    public static func write(_ result: InteropResult, named name: String, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(result).write(to: folder.appendingPathComponent(name + ".json"), options: .atomic)
    }

    private static func path(_ context: DecodingError.Context) -> String {
        "\"" + context.codingPath.map(\.stringValue).joined(separator: ".") + "\""
    }

    /// A decoding error in a sentence: which key, what was wrong.
    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(path(context)): \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty ? "not JSON" : "\(path(context)): \(context.debugDescription)"
        default: "\(error)"
        }
    }
}
