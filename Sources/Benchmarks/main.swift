#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// rtcswarm's benchmarks: never timed tests, always this executable in a release build.
/// `swift run -c release Benchmarks [name...]`; with no name, all of them run.
let benchmarks: [(name: String, run: () throws -> Void)] = [
    ("udp", {
        for payload in [100, 1200] {
            let result = try UDPThroughputBenchmark(datagrams: 1_000_000, payloadBytes: payload, window: 1024).run()
            print(String(format: "udp loopback %4d B: %8.0f datagrams/s sent+received on one thread, %.2f s CPU, %.2f us CPU per datagram, %d drops",
                         payload, result.perSecond, result.cpuSeconds, result.cpuSeconds / Double(result.datagrams) * 1e6,
                         result.drops))
        }
    }),
    ("srtp", {
        try SrtpBenchmark().run()
        try SrtpBenchmark(packetSize: SrtpBenchmark.audioPacketSize).run()
    }),
    ("dtls", { try DtlsBenchmark().run() }),
    ("rtp", {
        try RtpReceiveBenchmark().run()
        try RtpReceiveBenchmark(lossEvery: 50).run()
        try SrtpReceiveBenchmark().run()
        try Vp8PacketizationBenchmark().run()
    }),
    ("peer", { try PeerReceiveBenchmark().run() }),
    ("media", { try MediaBenchmark().run() }),
    ("rooms", { try RoomsBenchmark().run() }),
]
let available = benchmarks.map(\.name)
let selected = CommandLine.arguments.dropFirst().isEmpty ? available : Array(CommandLine.arguments.dropFirst())
for name in selected {
    guard let benchmark = benchmarks.first(where: { $0.name == name }) else {
        FileHandle.standardError.write(Data("unknown benchmark '\(name)'; available: \(available.joined(separator: ", "))\n".utf8))
        exit(2)
    }
    do {
        try benchmark.run()
    } catch {
        print("\(name): failed: \(error)")
    }
    fflush(nil)
}
