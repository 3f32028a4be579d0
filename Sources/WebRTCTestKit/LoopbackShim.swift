import Foundation

/// Tests/Interop/loopback_ifaddrs.c built as an `LD_PRELOAD` library: getifaddrs() with
/// IFF_LOOPBACK cleared, so that libnice-based servers (Janus, webrtcbin) gather
/// 127.0.0.1 as a host candidate (TARGETS.md). scripts/run-tests.sh compiles it into
/// `.build/interop/` when it is missing or older than its source.
public enum LoopbackShim {
    public static let relativePath = ".build/interop/libloopback_ifaddrs.so"

    /// The built library; skips (fails under CI=true) when it has not been built.
    public static func library() throws -> URL {
        try ExternalTool.require(ExternalTool.repositoryRoot.appendingPathComponent(relativePath).path,
                                 installHint: "scripts/run-tests.sh compiles Tests/Interop/loopback_ifaddrs.c with cc")
    }

    /// The environment to start a server with so it sees loopback as an ordinary interface.
    public static func environment() throws -> [String: String] {
        ["LD_PRELOAD": try library().path]
    }
}
