import Foundation

/// The versions of the interop targets that say them on the command line or in their
/// package metadata, for the interop matrix (Janus and SRS say theirs over HTTP: the
/// tests read `/janus/info` and `/api/v1/versions`). Each is looked up once per process;
/// nil when the target is not installed.
public enum TargetVersion {
    /// "aiortc 1.16.0": a package in an interop venv (`.venv` unless named), from its pip metadata
    /// (the `<name>-<version>.dist-info` folder pip writes).
    public static func pip(_ package: String, venv: String = ".venv") -> String? {
        cached("pip \(venv) \(package)") {
            let lib = ExternalTool.repositoryRoot.appendingPathComponent("\(venv)/lib")
            let normalized = package.lowercased().replacingOccurrences(of: "-", with: "_")
            for python in (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? [] {
                let packages = lib.appendingPathComponent(python).appendingPathComponent("site-packages")
                for folder in (try? FileManager.default.contentsOfDirectory(atPath: packages.path)) ?? [] where folder.hasSuffix(".dist-info") {
                    let stem = folder.dropLast(".dist-info".count)
                    guard let dash = stem.lastIndex(of: "-"), stem[..<dash].lowercased() == normalized else { continue }
                    return "\(package) \(stem[stem.index(after: dash)...])"
                }
            }
            return nil
        }
    }

    /// "Chromium 156.0.8078.108", from `chromium --version`.
    public static var chromium: String? {
        firstLine("chromium", ["--version"]).map { $0.components(separatedBy: " built on ")[0] }
    }

    /// "coturn 4.6.1", from `turnserver --version`.
    public static var coturn: String? { firstLine("turnserver", ["--version"]).map { "coturn \($0)" } }

    /// "tshark 4.0.17", from `tshark --version` ("TShark (Wireshark) 4.0.17 (...)").
    public static var tshark: String? {
        firstLine("tshark", ["--version"]).flatMap { line in
            line.split(separator: " ").first { $0.first?.isNumber == true }.map { "tshark \($0)" }
        }
    }

    /// "Pion webrtc 3.1.56": the Debian package Tests/Interop/pion builds against, from
    /// `dpkg-query` (its Debian revision dropped).
    public static var pion: String? {
        firstLine("dpkg-query", ["-W", "-f=${Version}\n", PionServer.sourcePackage])
            .map { "Pion webrtc \($0.split(separator: "-").first ?? Substring($0))" }
    }

    /// The first non-empty line `tool arguments` prints on standard output.
    static func firstLine(_ tool: String, _ arguments: [String]) -> String? {
        cached(([tool] + arguments).joined(separator: " ")) {
            guard let executable = ExternalTool.find(tool) else { return nil }
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var answers: [String: String?] = [:]

    /// `lookup`'s answer for `key`, computed at most once per process.
    private static func cached(_ key: String, _ lookup: () -> String?) -> String? {
        if let known = lock.withLock({ answers[key] }) { return known }
        let answer = lookup()
        lock.withLock { answers[key] = .some(answer) }
        return answer
    }
}
