#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes: standard output and standard error, replaceable in tests.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var error: @Sendable (String) -> Void
    /// Whether standard output is a terminal (a live progress line) or not (plain lines).
    public var isTerminal: Bool
    /// A progress line that replaces itself on a terminal.
    public var status: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, isTerminal: Bool,
                status: (@Sendable (String) -> Void)? = nil) {
        self.out = out
        self.error = error
        self.isTerminal = isTerminal
        self.status = status ?? out
    }

    /// The process's real streams.
    public static var standard: Console {
        let terminal = isatty(STDOUT_FILENO) == 1
        return Console(
            out: { text in writeAll(STDOUT_FILENO, (terminal ? "\r\u{1B}[2K" : "") + text + "\n") },
            error: { text in writeAll(STDERR_FILENO, text + "\n") },
            isTerminal: terminal,
            status: { text in writeAll(STDOUT_FILENO, terminal ? "\r\u{1B}[2K" + text : text + "\n") }
        )
    }
}

/// Writes all of `text` to a descriptor, unbuffered, so lines interleave correctly.
private func writeAll(_ fd: Int32, _ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return }
        bytes = bytes.dropFirst(written)
    }
}
