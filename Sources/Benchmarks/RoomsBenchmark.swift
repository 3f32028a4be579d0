import Foundation

/// The built-in room server on loopback (`RoomServerStream` on one event-loop thread) with
/// N Socket.IO clients (`RoomClientStream`, all on the main thread's event loop) in rooms
/// of two: how fast they join, then the relay latency while each client sends one
/// message per second carrying its send time, and what the server's thread spends.
///
/// Each N runs in a child process of its own (this executable again, told N through
/// `RoomsBenchmark.membersVariable`), so its memory and CPU figures start from a fresh
/// heap and nothing of the previous run is left open. Setting that variable by hand runs
/// one N alone (`RTCSWARM_BENCH_ROOM_MEMBERS=9900 Benchmarks rooms`).
struct RoomsBenchmark {
    static let membersVariable = "RTCSWARM_BENCH_ROOM_MEMBERS"

    var memberCounts = [1_000, 5_000]
    /// Clients connecting or joining at once.
    var connectWindow = 256
    var relaySeconds = 10

    func run() throws {
        let openFiles = ProcessLimits.raiseOpenFiles()
        if let value = ProcessInfo.processInfo.environment[Self.membersVariable] {
            guard let members = Int(value), members > 1 else { throw BenchmarkError("\(Self.membersVariable)=\(value)") }
            return try RoomsRun(members: members, connectWindow: connectWindow, relaySeconds: relaySeconds).run()
        }
        print("rooms RLIMIT_NOFILE raised to the hard limit: \(openFiles) descriptors, enough for "
              + "\(Self.maxMembers(openFiles: openFiles)) members with clients and server in one process")
        for members in memberCounts {
            let needed = Self.descriptors(members: members)
            guard needed <= openFiles else {
                print("rooms N=\(members): not run: needs about \(needed) file descriptors, RLIMIT_NOFILE hard limit is "
                      + "\(openFiles) (raise it in /etc/security/limits.conf or with ulimit -Hn as root)")
                continue
            }
            try runChild(members: members)
        }
    }

    /// Each client holds one socket and the server its accepted twin, plus a few for the
    /// loops, the listener and the standard streams.
    private static func descriptors(members: Int) -> Int { 2 * members + 64 }

    private static func maxMembers(openFiles: Int) -> Int { max(0, (openFiles - 64) / 2) }

    private func runChild(members: Int) throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["rooms"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.membersVariable: "\(members)"]) { $1 }
        fflush(nil)
        try child.run()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            throw BenchmarkError("rooms N=\(members): the child process ended with status \(child.terminationStatus)")
        }
    }
}
