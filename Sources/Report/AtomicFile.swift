#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Replaces a file in one step: the bytes go to a hidden temporary file in the same
/// folder (so the rename stays on one file system), which is flushed and then renamed over
/// the target (POSIX rename(2) is atomic). On any failure the temporary file is removed
/// and the old file, if there was one, is left as it was.
public enum AtomicFile {
    struct Failure: Error, CustomStringConvertible {
        let step: String
        let errno: Int32
        var description: String { "\(step): \(String(cString: strerror(errno)))" }
    }

    public static func replace(_ url: URL, with data: Data) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(step: "create", errno: errno) }
        do {
            try writeAll(fd, data)
            guard fsync(fd) == 0 else { throw Failure(step: "flush", errno: errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0 else {
            let failure = Failure(step: "close", errno: errno)
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, url.path) == 0 else {
            let failure = Failure(step: "rename", errno: errno)
            unlink(temporary)
            throw failure
        }
    }

    private static func writeAll(_ fd: Int32, _ data: Data) throws {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw Failure(step: "write", errno: written < 0 ? errno : ENOSPC) }
                offset += written
            }
        }
    }

    /// One line for a person: the system's words, not a Foundation error dump.
    public static func reason(_ error: Error) -> String {
        (error as? Failure)?.description ?? "\(error)"
    }
}
