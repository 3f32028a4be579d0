import Foundation

/// `peers.ndjson`: one JSON line per peer, appended the moment the peer ends, so a crash
/// or a kill still leaves the data of every peer that finished. Not thread-safe: one
/// writer per process, on the thread that ends peers.
public final class PeerLog {
    private let handle: FileHandle
    private let encoder: JSONEncoder
    public private(set) var written = 0

    public init(folder: URL) throws {
        let url = folder.appendingPathComponent("peers.ndjson")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    deinit { try? handle.close() }

    public func append(_ record: PeerRecord) throws {
        var line = try encoder.encode(record)
        line.append(0x0a)
        try handle.write(contentsOf: line)
        written += 1
    }

    /// Reads the records back (for `report merge` and for recovering a crashed run).
    public static func read(_ url: URL) throws -> [PeerRecord] {
        let decoder = JSONDecoder()
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { line in
            try decoder.decode(PeerRecord.self, from: Data(line.utf8))
        }
    }
}
