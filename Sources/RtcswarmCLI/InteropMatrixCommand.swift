import Foundation
import Report

/// `rtcswarm interop-matrix DIR`: the interop matrix (`INTEROP.md`) from the result files
/// the interop tests wrote (`scripts/run-tests.sh` calls it after the tests).
public enum InteropMatrixCommand: Subcommand {
    public static let spec = CommandSpec(
        name: "interop-matrix",
        summary: "Render the interop matrix (Markdown) from the interop tests' result files.",
        options: [
            .value("out", "FILE", "Write the Markdown to FILE (folders are created) and print its path; without it, print the Markdown."),
        ],
        positionals: [.init("RESULTS-DIR", "The folder of *.json results, e.g. .build/interop/results.")],
        examples: [
            "rtcswarm interop-matrix .build/interop/results",
            "rtcswarm interop-matrix .build/interop/results --out Reports/interop-20261129T120000Z/INTEROP.md",
        ]
    )

    public static func run(_ arguments: ParsedArguments, console: Console) -> ExitCode {
        let folder = arguments.positionals[0]
        let contents: InteropResultsFolder.Contents
        do {
            contents = try InteropResultsFolder.read(URL(fileURLWithPath: folder))
        } catch {
            console.error("error: \(error) (run the interop tests first: scripts/run-tests.sh --filter InteropTests)")
            return .usage
        }
        for problem in contents.unreadable { console.error("warning: skipped \(problem)") }
        guard !contents.results.isEmpty else {
            console.error("error: \(folder) holds no interop results (run the interop tests first: scripts/run-tests.sh --filter InteropTests)")
            return .usage
        }
        let context = InteropMatrixMarkdown.Context(rtcswarmVersion: Rtcswarm.version, machine: MachineDescription.current)
        let markdown = InteropMatrixMarkdown.render(InteropMatrix(contents.results), context: context, unreadable: contents.unreadable)
        guard let out = arguments.string("out") else {
            console.out(markdown)
            return .success
        }
        do {
            let url = URL(fileURLWithPath: out)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(markdown.utf8).write(to: url)
        } catch {
            console.error("error: cannot write \(out): \(error)")
            return .couldNotRun
        }
        console.out(out)
        return .success
    }
}
