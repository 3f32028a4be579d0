#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes: standard output and standard error, replaceable in tests.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var error: @Sendable (String) -> Void
    /// Whether standard output is a terminal (a live progress line) or not (plain lines).
    public var isTerminal: Bool

    public init(out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, isTerminal: Bool) {
        self.out = out
        self.error = error
        self.isTerminal = isTerminal
    }

    /// The process's real streams.
    public static var standard: Console {
        Console(
            out: { text in writeAll(STDOUT_FILENO, text + "\n") },
            error: { text in writeAll(STDERR_FILENO, text + "\n") },
            isTerminal: isatty(STDOUT_FILENO) == 1
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
