import Foundation

/// The starting inputs of a target: its fixtures and its generated seeds.
public enum FuzzCorpus {
    /// Every seed input of `target`, with fixtures read below `root` (the repository).
    public static func inputs(of target: FuzzTarget, root: URL) throws -> [[UInt8]] {
        try target.fixtures.flatMap { try inputs(of: $0, root: root) } + target.seeds()
    }

    /// Writes each seed input of `target` to `directory`, named by index, for libFuzzer to start from.
    public static func write(_ target: FuzzTarget, root: URL, to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (index, input) in try inputs(of: target, root: root).enumerated() {
            try Data(input).write(to: directory.appendingPathComponent("seed-\(index)"))
        }
    }

    /// The files in a folder (recursively), one input each or one per line; a missing folder is none.
    public static func files(under directory: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    private static func inputs(of selection: FixtureSelection, root: URL) throws -> [[UInt8]] {
        let matching = files(under: root.appendingPathComponent(selection.directory)).filter { $0.lastPathComponent.hasSuffix(selection.suffix) }
        return try matching.flatMap { file -> [[UInt8]] in
            let bytes = Array(try Data(contentsOf: file))
            return selection.byLine ? bytes.split(separator: UInt8(ascii: "\n")).map(Array.init) : [bytes]
        }
    }
}
