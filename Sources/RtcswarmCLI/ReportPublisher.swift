import Foundation
import Report
import RTCBase

/// Writes a finished run's report files and prints its summary table. When some files
/// cannot be written (a full disk), the table still reaches standard output, so what
/// the run measured is not lost, and the error names each file that is missing.
enum ReportPublisher {
    /// False when a file could not be written (already said on standard error).
    static func publish(_ report: RunReport, to folder: URL, console: Console) -> Bool {
        defer { console.out(MarkdownSummary.render(report)) }
        do {
            try ReportWriter.write(report, to: folder)
            return true
        } catch let failure as ReportWriteFailure {
            console.error("error: \(failure); the summary follows on standard output")
        } catch {
            console.error("error: cannot write the report to \(folder.path): \(FileProblem.describe(error))")
        }
        return false
    }
}
