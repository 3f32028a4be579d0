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
    targets: [
        // C interop.
        .target(name: "CShims", cSettings: [.define("_GNU_SOURCE")]),
        systemLibrary("COpenSSL", pkgConfig: "openssl", apt: "libssl-dev"),
        systemLibrary("CSRTP", pkgConfig: "libsrtp2", apt: "libsrtp2-dev"),
        systemLibrary("COpus", pkgConfig: "opus", apt: "libopus-dev"),
        systemLibrary("CVPX", pkgConfig: "vpx", apt: "libvpx-dev"),
        systemLibrary("COpenH264", pkgConfig: "openh264", apt: "libopenh264-dev"),

        // Sans-IO core.
        .target(name: "RTCBase"),
        .target(name: "RTP", dependencies: ["RTCBase"]),
        .target(name: "RTPSession", dependencies: ["RTCBase", "RTP"]),

        // Test support: virtual time, in-memory network, fuzzing, captured fixtures.
        .target(name: "WebRTCTestKit", dependencies: ["RTCBase"]),

        // Tests.
        .testTarget(name: "WebRTCTestKitTests", dependencies: ["WebRTCTestKit", "RTCBase"]),
        .testTarget(name: "RTCBaseTests", dependencies: ["RTCBase"]),
        .testTarget(name: "RTPTests", dependencies: ["RTP", "RTCBase", "WebRTCTestKit"]),
        .testTarget(name: "RTPSessionTests", dependencies: ["RTPSession", "RTP", "RTCBase", "WebRTCTestKit"]),
    ],
    swiftLanguageModes: [.v6]
)
