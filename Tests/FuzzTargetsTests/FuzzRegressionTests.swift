import Foundation
import FuzzTargets
import WebRTCTestKit
import XCTest

/// The libFuzzer targets' inputs replayed through the same `FuzzTarget.run` the entries
/// in `Fuzz/` call: every crash libFuzzer found (checked in under `Tests/Fixtures/fuzz/<target>/`)
/// and every seed, in the plain unit-test build.
final class FuzzRegressionTests: XCTestCase {
    private let root = ExternalTool.repositoryRoot

    /// A trap here stops the test run at the input that brought it back.
    func testEveryCheckedInCrashInputReplaysWithoutTrapping() throws {
        let folder = root.appendingPathComponent("Tests/Fixtures/fuzz")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() {
            let target = try XCTUnwrap(FuzzTarget.named(name), "Tests/Fixtures/fuzz/\(name) names no fuzz target")
            let inputs = FuzzCorpus.files(under: folder.appendingPathComponent(name))
            XCTAssertFalse(inputs.isEmpty, "Tests/Fixtures/fuzz/\(name) is empty")
            for file in inputs { _ = target.run(Array(try Data(contentsOf: file))) }
        }
    }

    /// Seeds that the parser refuses would start libFuzzer nowhere near the parser's depth.
    func testEachTargetAcceptsMostOfItsSeeds() throws {
        for target in FuzzTarget.all {
            let inputs = try FuzzCorpus.inputs(of: target, root: root)
            let accepted = inputs.filter(target.run).count
            XCTAssertGreaterThan(inputs.count, 0, target.name)
            XCTAssertGreaterThanOrEqual(accepted * 2, inputs.count, "\(target.name): \(accepted) of \(inputs.count) seeds accepted")
        }
    }

    func testEveryTargetHasAnEntryFileAndEveryEntryFileATarget() throws {
        let folder = root.appendingPathComponent("Fuzz")
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".swift") && $0 != "Entry.swift" }.map { String($0.dropLast(".swift".count)) }
        XCTAssertEqual(Set(entries), Set(FuzzTarget.all.map(\.name)))
        for name in entries {
            let text = try String(contentsOf: folder.appendingPathComponent("\(name).swift"), encoding: .utf8)
            XCTAssertTrue(text.contains("let fuzzTarget = FuzzTarget.\(name)\n"), "Fuzz/\(name).swift must select FuzzTarget.\(name)")
        }
    }
}
