import RtcswarmCLI
import XCTest

final class ArgumentParserTests: XCTestCase {
    private let spec = CommandSpec(
        name: "demo",
        summary: "A command for tests.",
        options: [
            .value("peers", "N", default: "20", "How many peers."),
            .value("out", "DIR", "Where to write."),
            .value("set", "PATH=VALUE", repeatable: true, "Override a field."),
            .flag("verbose", "Say more."),
        ],
        positionals: [.init("SCENARIO", "The scenario file.")],
        examples: ["rtcswarm demo --peers 5 file.json5"]
    )

    func testParsesValuesFlagsPositionalsAndDefaults() throws {
        let parsed = try spec.parse(["--peers", "7", "--verbose", "--set=a.b=1", "--set", "c=2", "s.json5"])
        XCTAssertEqual(try parsed.int("peers", in: 1...100), 7)
        XCTAssertTrue(parsed.flag("verbose"))
        XCTAssertEqual(parsed.strings("set"), ["a.b=1", "c=2"])
        XCTAssertEqual(parsed.positionals, ["s.json5"])
        XCTAssertNil(parsed.string("out"))
        let defaults = try spec.parse(["x"])
        XCTAssertEqual(defaults.string("peers"), "20", "the default applies when the option is absent")
    }

    func testUnknownFlagNamesItAndListsTheValidOnes() {
        XCTAssertThrowsError(try spec.parse(["--peer", "3", "x"])) { error in
            let usage = error as? UsageError
            XCTAssertEqual(usage?.message, "unknown option --peer for 'demo'")
            XCTAssertEqual(usage?.hint, "valid options: --peers, --out, --set, --verbose, --help")
        }
    }

    func testMissingValueWrongNumberAndExtraArgumentsAreUsageErrors() throws {
        XCTAssertThrowsError(try spec.parse(["x", "--out"])) { error in
            XCTAssertEqual((error as? UsageError)?.message, "--out needs a value <DIR>")
        }
        XCTAssertThrowsError(try spec.parse(["x", "--verbose=yes"]))
        XCTAssertThrowsError(try spec.parse(["x", "--peers", "1", "--peers", "2"]))
        XCTAssertThrowsError(try spec.parse(["x", "y"])) { error in
            XCTAssertEqual((error as? UsageError)?.message, "unexpected argument 'y' for 'demo'")
        }
        XCTAssertThrowsError(try spec.parse([])) { error in
            XCTAssertEqual((error as? UsageError)?.message, "'demo' needs SCENARIO: The scenario file.")
        }
        let parsed = try spec.parse(["--peers", "many", "x"])
        XCTAssertThrowsError(try parsed.int("peers", in: 1...100)) { error in
            XCTAssertEqual((error as? UsageError)?.message, "--peers many: expected a whole number from 1 to 100")
        }
        XCTAssertEqual(try spec.parse(["--", "--peers"]).positionals, ["--peers"], "-- ends the options")
    }

    func testHelpListsEveryOptionWithItsDefault() {
        let help = spec.help
        XCTAssertTrue(help.contains("USAGE: rtcswarm demo [options] SCENARIO"))
        XCTAssertTrue(help.contains("--peers <N>"))
        XCTAssertTrue(help.contains("How many peers. (default: 20)"))
        XCTAssertTrue(help.contains("Override a field. (repeatable)"))
        XCTAssertTrue(help.contains("--help"))
        XCTAssertTrue(help.contains("rtcswarm demo --peers 5 file.json5"))
        for option in spec.options { XCTAssertTrue(help.contains("--\(option.name)"), option.name) }
    }
}
