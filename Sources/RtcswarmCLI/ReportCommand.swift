import Foundation
import Report
import RTCBase

/// `rtcswarm report compare|merge|render`: work on finished runs' reports.
public enum ReportCommand: Subcommand {
    public static let spec = CommandSpec(
        name: "report",
        summary: "Compare two runs (a regression gate), merge shards, or render a report folder again.",
        options: [
            .value("tolerance", "PERCENT", default: "10", "compare: how much worse a figure may get before it is a regression."),
            .value("out", "PATH", "compare: also write the comparison here (Markdown; compare.html always goes into NEW's folder); "
                   + "merge: the merged report folder (required)."),
            .flag("allow-different", "compare: compare runs of different scenarios (refused otherwise, exit 3)."),
        ],
        positionals: [
            .init("ACTION", "compare OLD NEW | merge DIR... (a shard missing, unreadable or failed fails the merged verdict) | render DIR"),
            .init("PATH", variadic: true, "Report folders or report.json files."),
        ],
        examples: [
            "rtcswarm report compare Reports/baseline Reports/quickstart-20261129T120000Z",
            "rtcswarm report merge shard-a shard-b --out Reports/merged",
            "rtcswarm report render Reports/quickstart-20261129T120000Z",
        ]
    )

    public static func run(_ arguments: ParsedArguments, console: Console) -> ExitCode {
        let action = arguments.positionals[0]
        let paths = Array(arguments.positionals.dropFirst())
        do {
            switch (action, paths.count) {
            case ("compare", 2):
                let tolerance = try arguments.double("tolerance", in: 0...10_000) ?? 10
                let (old, new) = (try ReportWriter.read(paths[0]), try ReportWriter.read(paths[1]))
                if let refusal = ReportComparison.refusal(old: old, new: new, allowDifferent: arguments.flag("allow-different")) {
                    console.error("error: cannot compare \(paths[0]) with \(paths[1]): \(refusal)")
                    return .couldNotRun
                }
                let comparison = ReportComparison(old: old, new: new, tolerancePct: tolerance)
                console.out(comparison.markdown)
                if let out = arguments.string("out") { try Data(comparison.markdown.utf8).write(to: URL(fileURLWithPath: out)) }
                let page = ReportWriter.folder(of: paths[1]).appendingPathComponent("compare.html")
                try AtomicFile.replace(page, with: Data(comparison.html(old: old, new: new).utf8))
                console.out(page.path)
                return comparison.regressions.isEmpty ? .success : .thresholdFailed
            case ("merge", 1...):
                guard let out = arguments.string("out") else {
                    throw UsageError("report merge needs --out DIR", hint: "e.g. rtcswarm report merge a b --out Reports/merged")
                }
                var sources: [ReportMerge.Source] = []
                var unreadable: [(path: String, reason: String)] = []
                for path in paths {
                    do {
                        sources.append((path, try ReportWriter.read(path)))
                    } catch {
                        unreadable.append((path, FileProblem.describe(error)))
                    }
                }
                guard !sources.isEmpty else {
                    throw ReportError("no report could be read: " + unreadable.map { "\($0.path): \($0.reason)" }.joined(separator: "; "))
                }
                let merged = try ReportMerge.merge(sources, unreadable: unreadable)
                for problem in merged.shardProblems ?? [] { console.error("merge: \(problem)") }
                guard ReportPublisher.publish(merged, to: URL(fileURLWithPath: out), console: console) else { return .couldNotRun }
                console.out(out)
                return merged.passed ? .success : .thresholdFailed
            case ("render", 1):
                let report = try ReportWriter.read(paths[0])
                let folder = ReportWriter.folder(of: paths[0])
                try ReportWriter.write(report, to: folder)
                console.out(folder.path)
                return .success
            default:
                throw UsageError("report \(action) with \(paths.count) path(s)",
                                 hint: "use: report compare OLD NEW | report merge DIR... --out DIR | report render DIR")
            }
        } catch let error as UsageError {
            console.error(error.description)
            return .usage
        } catch {
            console.error("error: \(FileProblem.describe(error))")
            return .couldNotRun
        }
    }
}
