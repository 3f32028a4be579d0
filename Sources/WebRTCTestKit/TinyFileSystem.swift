#if canImport(Glibc)
import Glibc
#endif
import Foundation
import XCTest

/// A real, nearly full disk for tests: a tmpfs of a few kilobytes mounted on a fresh
/// folder, so a write fails with ENOSPC the way it does on a full `--out` volume.
/// Mounting needs root (CAP_SYS_ADMIN); without it the test skips and says why.
public final class TinyFileSystem {
    public let folder: URL

    public init(bytes: Int) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tinyfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard mount("tmpfs", folder.path, "tmpfs", 0, "size=\(bytes)") == 0 else {
            let reason = "cannot mount a \(bytes)-byte tmpfs (\(String(cString: strerror(errno)))); run the tests as root"
            try? FileManager.default.removeItem(at: folder)
            print("skipped: \(reason)")
            throw XCTSkip(reason)
        }
    }

    deinit {
        umount2(folder.path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(at: folder)
    }
}
