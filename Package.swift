// swift-tools-version:6.0
// rtcswarm: a WebRTC interoperability and load-test harness for Linux.
// Targets follow the layout of ARCHITECTURE.md: dependencies only point down that table.
import PackageDescription

/// One Debian `-dev` package seen through pkg-config, with a shim header for what Swift
/// cannot import (macros, variadic calls).
func systemLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "rtcswarm",
    products: [
        .executable(name: "rtcswarm", targets: ["rtcswarm"]),
    ],
    targets: [
        // C interop.
        .target(name: "CShims", cSettings: [.define("_GNU_SOURCE")]),
        systemLibrary("COpenSSL", pkgConfig: "openssl", apt: "libssl-dev"),
        systemLibrary("CSRTP", pkgConfig: "libsrtp2", apt: "libsrtp2-dev"),
        systemLibrary("COpus", pkgConfig: "opus", apt: "libopus-dev"),
        systemLibrary("CVPX", pkgConfig: "vpx", apt: "libvpx-dev"),
        systemLibrary("COpenH264", pkgConfig: "openh264", apt: "libopenh264-dev"),
        systemLibrary("CX265", pkgConfig: "x265", apt: "libx265-dev"),
        systemLibrary("CDe265", pkgConfig: "libde265", apt: "libde265-dev"),
        systemLibrary("CAOM", pkgConfig: "aom", apt: "libaom-dev"),

        // Sans-IO core.
        .target(name: "RTCBase"),
        .target(name: "RTP", dependencies: ["RTCBase"]),
        .target(name: "RTPSession", dependencies: ["RTCBase", "RTP"]),
        .target(name: "STUN", dependencies: ["RTCBase", "COpenSSL"]),
        .target(name: "ICE", dependencies: ["RTCBase", "STUN"]),
        .target(name: "DTLS", dependencies: ["RTCBase", "COpenSSL"]),
        .target(name: "SRTP", dependencies: ["RTCBase", "COpenSSL"]),
        .target(name: "Net", dependencies: ["RTCBase", "COpenSSL"]),
        .target(name: "SDP", dependencies: ["RTCBase"]),
        .target(name: "Impairment", dependencies: ["RTCBase"]),
        // SCTP over DTLS and the WebRTC data channel protocol (issue 20).
        .target(name: "SCTP", dependencies: ["RTCBase", "COpenSSL"]),
        .target(name: "Metrics", dependencies: ["RTCBase"]),
        .target(name: "PeerCore", dependencies: ["RTCBase", "SDP", "ICE", "STUN", "DTLS", "SRTP", "RTP", "RTPSession", "SCTP"]),

        // Signaling adapters and the built-in room server.
        .target(name: "Signaling", dependencies: ["RTCBase", "Net", "SDP"]),
        .target(name: "RoomServer", dependencies: ["RTCBase", "Net", "Signaling"]),

        // Scenario files: JSON5, validation with clear errors, the execution plan.
        .target(name: "Scenario", dependencies: ["RTCBase", "Impairment", "Metrics"]),

        // Reports: JSON, NDJSON, JUnit, Markdown, HTML with SVG charts; compare and merge.
        .target(name: "Report", dependencies: ["Metrics"]),

        // The only targets that touch sockets, clocks and threads.
        .target(name: "EventLoop", dependencies: ["RTCBase", "Metrics", "CShims"]),

        // Wires protocol state machines to the event loop: hosts, peers, the runner.
        .target(
            name: "Runtime",
            dependencies: ["RTCBase", "EventLoop", "Net", "Signaling", "RoomServer", "PeerCore", "SDP", "ICE", "Media", "Impairment",
                           "Metrics", "Scenario", "Report", "SCTP"]
        ),

        // The command line.
        .target(
            name: "RtcswarmCLI",
            dependencies: ["RTCBase", "EventLoop", "Scenario", "Report", "Runtime", "RoomServer", "Signaling", "Net", "COpenSSL", "CSRTP", "COpus", "CVPX", "COpenH264", "CX265", "CDe265", "CAOM"]
        ),
        .executableTarget(name: "rtcswarm", dependencies: ["RtcswarmCLI"]),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["RTCBase", "EventLoop", "SRTP", "LibSRTPReference", "DTLS", "RTP", "RTPSession", "PeerCore", "SDP", "STUN", "Media", "Net", "Signaling", "RoomServer", "Runtime"]
        ),

        // libsrtp2 as the reference the SRTP tests and the SRTP benchmark compare with.
        .target(name: "LibSRTPReference", dependencies: ["SRTP", "CSRTP"]),

        // Test support: virtual time, in-memory network, fuzzing, captured fixtures.
        .target(name: "WebRTCTestKit", dependencies: ["RTCBase", "Impairment", "STUN", "Report"]),

        // Synthetic media, codecs, bitstream inspection (issue 4).
        .target(name: "Media", dependencies: ["RTCBase", "RTP", "COpus", "CVPX", "COpenH264", "CX265", "CDe265", "CAOM"]),

        // What each libFuzzer entry in Fuzz/ feeds its parser, shared with the replay test.
        .target(name: "FuzzTargets", dependencies: ["RTCBase", "STUN", "RTP", "SRTP", "SCTP", "SDP", "Net", "Signaling", "Scenario", "Metrics", "Media"]),

        // Tests.
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "Metrics", "RTCBase", "CShims"]),
        .testTarget(
            name: "ShimTests",
            dependencies: ["CShims", "COpenSSL", "CSRTP", "COpus", "CVPX", "COpenH264"]
        ),
        .testTarget(name: "RtcswarmCLITests", dependencies: ["RtcswarmCLI", "Report", "Metrics", "WebRTCTestKit"]),
        .testTarget(name: "SignalingTests", dependencies: ["Signaling", "Net", "SDP", "RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "RoomServerTests", dependencies: ["RoomServer", "Signaling", "Net", "RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "RuntimeTests", dependencies: ["Runtime", "EventLoop", "RoomServer", "Signaling", "Net", "Media", "RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "ScenarioTests", dependencies: ["Scenario", "WebRTCTestKit"]),
        .testTarget(name: "ReportTests", dependencies: ["Report", "Metrics", "WebRTCTestKit"]),
        .testTarget(
            name: "InteropTests",
            dependencies: ["Runtime", "EventLoop", "RoomServer", "Signaling", "Net", "SDP", "PeerCore", "SCTP", "Media", "ICE", "Report", "Metrics", "RTCBase", "WebRTCTestKit"]
        ),
        .testTarget(name: "ProjectTests", dependencies: ["WebRTCTestKit"]),
        .testTarget(name: "WebRTCTestKitTests", dependencies: ["WebRTCTestKit", "RTCBase"]),
        .testTarget(name: "RTCBaseTests", dependencies: ["RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "ImpairmentTests", dependencies: ["Impairment", "RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "MetricsTests", dependencies: ["Metrics", "RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "SDPTests", dependencies: ["SDP", "RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "NetTests", dependencies: ["Net", "RTCBase", "WebRTCTestKit", "COpenSSL"]),
        .testTarget(name: "SRTPTests", dependencies: ["SRTP", "LibSRTPReference", "RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "DTLSTests", dependencies: ["DTLS", "SRTP", "RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "RTP", "RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "STUNTests", dependencies: ["STUN", "RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "ICETests", dependencies: ["ICE", "STUN", "RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "RTPTests", dependencies: ["RTP", "FuzzTargets", "RTCBase", "WebRTCTestKit"]),
        .testTarget(
            name: "PeerCoreTests",
            dependencies: ["PeerCore", "SCTP", "Media", "EventLoop", "SDP", "ICE", "STUN", "DTLS", "Impairment", "RTCBase", "WebRTCTestKit"]
        ),
        .testTarget(name: "SCTPTests", dependencies: ["SCTP", "DTLS", "Impairment", "RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets", "WebRTCTestKit"]),
        .testTarget(name: "RTPSessionTests", dependencies: ["RTPSession", "RTP", "Impairment", "RTCBase", "WebRTCTestKit"]),
    ],
    swiftLanguageModes: [.v6]
)

// Release builds optimize across module boundaries: the sans-IO core is generic
// (FrameAssembler over its depacketizer, StunTransactions over its purpose), and without
// this the modules that use it run its code unspecialized, looking up type metadata on
// every packet (a fifth of a player's CPU in `perf`). They also leave out the run-time
// exclusivity checks (swift_beginAccess on every access to a class's stored property,
// 4 % of a player's CPU through SRS); debug builds, which the tests run, keep them, so a
// conflicting access still stops a test.
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? [])
        + [.unsafeFlags(["-cross-module-optimization", "-enforce-exclusivity=unchecked"], .when(configuration: .release))]
}
