import Net
import RTCBase
import WebRTCTestKit
import XCTest

final class JSONValueTests: XCTestCase {
    func testKeepsMemberOrderAndSerializesCompactly() throws {
        let text = #"{ "sid" : "abc", "upgrades":[ ], "pingInterval" :25000,"n":-1.5e3, "ok":true, "x":null }"#
        let value = try JSONValue(parsing: text)
        XCTAssertEqual(value.serialized, #"{"sid":"abc","upgrades":[],"pingInterval":25000,"n":-1500.0,"ok":true,"x":null}"#)
        XCTAssertEqual(value["pingInterval"], .integer(25000))
        XCTAssertEqual(value["n"]?.doubleValue, -1500)
        XCTAssertNil(value["missing"])
    }

    func testSixteenDigitJanusIdsStayExact() throws {
        let value = try JSONValue(parsing: #"{"data":{"id":7123339552004793},"big":9223372036854775807,"huge":18446744073709551616}"#)
        XCTAssertEqual(value["data"]?["id"]?.integerValue, 7_123_339_552_004_793)  // odd: a Double would round it
        XCTAssertEqual(value["big"], .integer(.max))
        XCTAssertEqual(value["huge"]?.doubleValue, 18_446_744_073_709_551_616)
    }

    func testStringEscapesAndSurrogatePairsRoundTrip() throws {
        let value = try JSONValue(parsing: #""a\"b\\c\/d\n\r\t\b\f\u00e9\ud83d\ude00""#)
        XCTAssertEqual(value.stringValue, "a\"b\\c/d\n\r\t\u{8}\u{c}é😀")
        XCTAssertEqual(value.serialized, "\"a\\\"b\\\\c/d\\n\\r\\t\\u0008\\u000Cé😀\"")
        XCTAssertEqual(try JSONValue(parsing: value.serialized), value)
    }

    func testRejectsInvalidJSON() {
        for bad in ["", "{", "[1,]", "{\"a\":1,}", "01", "-", "1.", ".5", "+1", "tru", "\"abc", "\"\u{1}\"", "\"\\x\"",
                    "\"\\ud800\"", "\"\\udc00\"", "1e999", "{a:1}", "[1 2]", "1 2", String(repeating: "[", count: 100) + String(repeating: "]", count: 100)] {
            XCTAssertThrowsError(try JSONValue(parsing: bad), bad)
        }
        XCTAssertThrowsError(try JSONValue(parsing: [0x22, 0xff, 0x22]))  // not UTF-8
    }

    func testCapturedJanusExchangesParseAndRoundTrip() throws {
        for file in ["janus/echo-vp8.jsonl", "janus/videoroom.jsonl"] {
            let lines = try Fixtures.text(file).split(separator: "\n")
            XCTAssertGreaterThan(lines.count, 20)
            for line in lines {
                let value = try JSONValue(parsing: line)
                XCTAssertNotNil(value["body"]?["janus"]?.stringValue, String(line.prefix(80)))
                XCTAssertEqual(try JSONValue(parsing: value.serialized), value)
            }
            let ids = lines.compactMap { try? JSONValue(parsing: $0)["body"]?["data"]?["id"]?.integerValue }
            XCTAssertTrue(ids.allSatisfy { $0 > 1 << 40 }, "\(ids)")
        }
    }

    func testParserSurvivesFuzzing() throws {
        let seeds = try Fixtures.text("janus/videoroom.jsonl").split(separator: "\n").prefix(10).map { Array($0.utf8) }
            + [Array(#"[1,-2.5e-3,"\ud83d\ude00",{"a":[true,false,null]}]"#.utf8)]
        var fuzzer = Fuzzer(seeds: seeds, seed: 4, maxLength: 300)
        var parsed = 0
        fuzzer.run(iterations: 100_000) { input in
            if let value = try? JSONValue(parsing: input) {
                parsed += 1
                XCTAssertEqual(try? JSONValue(parsing: value.serialized), value)
            }
        }
        XCTAssertGreaterThan(parsed, 500)
    }
}
