import XCTest

/// The reason a test skipped. swift-corelibs-xctest keeps the thrown `XCTSkip` only in a
/// private `skip` property of `XCTestCase` and tells no observer, so this reads it by
/// reflection; `InteropRecorderTests` fails if an XCTest update moves it.
enum TestSkipReason {
    static func of(_ test: XCTestCase) -> String? {
        var mirror: Mirror? = Mirror(reflecting: test)
        while let current = mirror {
            for child in current.children where child.label == "skip" {
                if let skip = child.value as? XCTSkip { return skip.message }
            }
            mirror = current.superclassMirror
        }
        return nil
    }
}
