import FuzzTargets
import Foundation

// The libFuzzer entry points, shared by every target: each `Fuzz/<name>.swift` only says
// which `FuzzTarget` it is (`fuzzTarget`), and `scripts/fuzz.sh` links the two into
// `.build/fuzz/bin/<name>`.

/// Called once before fuzzing. With `FUZZ_SEED_DIR` set, writes the target's seed inputs
/// (fixtures below `FUZZ_ROOT` and generated seeds) there for libFuzzer to start from.
@_cdecl("LLVMFuzzerInitialize")
func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    guard let directory = environment["FUZZ_SEED_DIR"] else { return 0 }
    let root = URL(fileURLWithPath: environment["FUZZ_ROOT"] ?? FileManager.default.currentDirectoryPath)
    do {
        try FuzzCorpus.write(fuzzTarget, root: root, to: URL(fileURLWithPath: directory))
    } catch {
        fatalError("cannot write the seeds of \(fuzzTarget.name) to \(directory): \(error)")
    }
    return 0
}

/// Called for every input libFuzzer makes; a trap or an ASan report is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    _ = fuzzTarget.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
