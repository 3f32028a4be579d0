import RTCBase
import WebRTCTestKit
import XCTest

final class JSON5ParserTests: XCTestCase {
    func testParsesJSON5ExtensionsIntoOrderedValues() throws {
        let text = """
        // a comment
        {
          unquoted: 'single',  /* block
          comment */ "quoted": "a\\tb\\u00e9",
          hex: 0x1F, lead: .5, trail: 5., plus: +3, neg: -2.5e2, inf: -Infinity,
          list: [1, true, null,],
          nested: { deep: [ { x: 1 } ] },
        }
        """
        let value = try JSON5Parser.parse(text)
        guard case .object(let members) = value else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), ["unquoted", "quoted", "hex", "lead", "trail", "plus", "neg", "inf", "list", "nested"])
        XCTAssertEqual(value["unquoted"], .string("single"))
        XCTAssertEqual(value["quoted"], .string("a\tbé"))
        XCTAssertEqual(value["hex"], .integer(31))
        XCTAssertEqual(value["lead"], .double(0.5))
        XCTAssertEqual(value["trail"], .double(5))
        XCTAssertEqual(value["plus"], .integer(3))
        XCTAssertEqual(value["neg"], .double(-250))
        XCTAssertEqual(value["inf"], .double(-.infinity))
        XCTAssertEqual(value["list"], .array([.integer(1), .bool(true), .null]))
        XCTAssertEqual(value["nested"]?["deep"], .array([.object([JSONValue.Member("x", .integer(1))])]))
    }

    func testSyntaxErrorsSayLineAndColumn() {
        let cases: [(String, JSON5SyntaxError)] = [
            ("{\n  a: 1,\n  b: tru\n}", JSON5SyntaxError(line: 3, column: 6, message: "unexpected 'tru': strings need quotes")),
            ("{ a: 1 b: 2 }", JSON5SyntaxError(line: 1, column: 8, message: "expected ',' or '}' after the value of \"a\", found 'b'")),
            ("{ a: 'open\n }", JSON5SyntaxError(line: 1, column: 11, message: "line break inside a string (end it with \\ to continue)")),
            ("[1, 2", JSON5SyntaxError(line: 1, column: 6, message: "expected ',' or ']' in a list, found end of file")),
            ("{ a 1 }", JSON5SyntaxError(line: 1, column: 5, message: "expected ':' after key \"a\", found '1'")),
            ("/* never closed", JSON5SyntaxError(line: 1, column: 1, message: "unterminated /* comment")),
            ("{ a: 1, a: 2 }", JSON5SyntaxError(line: 1, column: 10, message: "duplicate key \"a\"")),
            ("{} {}", JSON5SyntaxError(line: 1, column: 4, message: "unexpected '{' after the document")),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try JSON5Parser.parse(text), text) { error in
                XCTAssertEqual(error as? JSON5SyntaxError, expected, text)
            }
        }
    }

    func testDeepNestingIsRefusedNotOverflowed() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        XCTAssertThrowsError(try JSON5Parser.parse(deep)) { error in
            XCTAssertEqual((error as? JSON5SyntaxError)?.message, "nesting deeper than 64 levels")
        }
    }

    func testHundredThousandMutatedDocumentsNeverCrash() {
        let seeds = [
            "{ name: 'q', duration_s: 30, groups: [{ role: 'pair', count: 2 }], target: { kind: 'builtin-room' } }",
            "[1, 2.5, -Infinity, 0x10, 'a\\nb', { \"k\": null }, /* c */ true]",
        ].map { Array($0.utf8) }
        var fuzzer = Fuzzer(seeds: seeds, seed: 11, maxLength: 300)
        var parsed = 0
        fuzzer.run(iterations: 100_000) { input in
            if (try? JSON5Parser.parse(String(decoding: input, as: UTF8.self))) != nil { parsed += 1 }
        }
        XCTAssertGreaterThan(parsed, 100, "some mutations stay valid, so the parser was really exercised")
    }
}
