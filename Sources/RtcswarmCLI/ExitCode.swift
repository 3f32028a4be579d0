/// Process exit codes (README, "Exit codes"). CI systems branch on these.
public enum ExitCode: Int32, Sendable {
    /// Everything ran and every threshold held.
    case success = 0
    /// Usage error or bad scenario: nothing started.
    case usage = 2
    /// Could not run: a target unreachable, a setup error.
    case couldNotRun = 3
    /// A threshold failed.
    case thresholdFailed = 4
    /// The run is invalid because the harness itself saturated.
    case harnessSaturated = 5
    /// Interrupted by SIGINT/SIGTERM; the report is still written.
    case interrupted = 130
}
