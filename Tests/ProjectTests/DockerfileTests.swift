import Foundation
import WebRTCTestKit
import XCTest

/// The Dockerfile's build stage installs every Debian package `scripts/setup.sh` builds
/// with (RTCSWARM_BUILD_PACKAGES), and its runtime stage the shared library of each `-dev`
/// package, so the image still builds and runs when a C library joins the build.
final class DockerfileTests: XCTestCase {
    private func text(_ path: String) throws -> String {
        try String(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    func testBuildStageInstallsEveryBuildPackage() throws {
        let setup = try text("scripts/setup.sh")
        let line = try XCTUnwrap(setup.split(separator: "\n").first { $0.hasPrefix("RTCSWARM_BUILD_PACKAGES=(") })
        let packages = line.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }.split(separator: " ").map(String.init)
        XCTAssertGreaterThanOrEqual(packages.count, 8, "\(line)")
        let dockerfile = try text("Dockerfile")
        let stages = Array(dockerfile.components(separatedBy: "\nFROM ").dropFirst())  // before the first FROM: comments
        XCTAssertEqual(stages.count, 2, "a build stage and a runtime stage")
        let build = Set(stages[0].split { $0 == " " || $0 == "\n" }.map(String.init))
        XCTAssertEqual(packages.filter { !build.contains($0) }, [], "build packages the Dockerfile's build stage leaves out")
        // A runtime library per -dev package: libssl-dev -> libssl3, libx265-dev -> libx265-199.
        let runtime = stages[1].split { $0 == " " || $0 == "\n" }.map(String.init)
        for package in packages where package.hasSuffix("-dev") {
            let stem = String(package.dropLast("-dev".count))
            XCTAssertTrue(runtime.contains { $0.hasPrefix(stem) && !$0.hasSuffix("-dev") }, "the runtime stage has no \(stem) library")
        }
    }
}
