import RTCBase
import SDP
import XCTest

final class SDPParseErrorTests: XCTestCase {
    private let header = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"

    private func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ParseError? {
        do {
            _ = try SessionDescription.parse(text)
            XCTFail("parsed", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testSRSBadWhipBodyFailsOnLine2NamingTheLine() throws {
        let body = try SDPFixtureCorpus.httpBody("srs/error-whip-bad-sdp.request.http")
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "v=0\r\nthis is not an sdp\r\n")
        do {
            _ = try SessionDescription.parse(bytes: body)
            XCTFail("parsed")
        } catch {
            XCTAssertEqual(error.code, .invalidValue)
            XCTAssertTrue(error.message.hasPrefix("SDP line 2 \"this is not an sdp\""), error.message)
        }
    }

    func testMalformedTypedAttributesNameTheirLine() {
        let cases: [(String, String)] = [
            ("a=rtpmap:96 VP8", "rtpmap"),
            ("a=rtpmap:128 VP8/90000", "payload type"),
            ("a=fmtp:x apt=96", "payload type"),
            ("a=candidate:1 1 udp 2130706431 127.0.0.1 70000 typ host", "port"),
            ("a=candidate:1 1 udp 1 127.0.0.1 5000 type host", "typ"),
            ("a=candidate:1 1 udp 1 127.0.0.1 5000 typ host raddr", "fields"),
            ("a=setup:sideways", "setup"),
            ("a=fingerprint:sha-256 XY:00", "hex"),
            ("a=extmap:0 urn:x", "reserved"),
            ("a=ssrc:4294967296 cname:x", "range"),
            ("a=ssrc-group:FID", "no SSRC"),
            ("a=mid:", "mid"),
            ("m=video  9 RTP/AVP 96", "stray space"),
        ]
        for (line, reason) in cases {
            let text = header + "m=audio 9 UDP/TLS/RTP/SAVPF 96\r\n" + line + "\r\n"
            guard let error = error(text) else { continue }
            // Line 6: four header lines, the m= line, then the line under test.
            XCTAssertTrue(error.message.hasPrefix("SDP line 6 \"\(line)\""), error.message)
            XCTAssertTrue(error.message.contains(reason), "\(line): \(error.message)")
        }
    }

    func testStructureErrors() {
        XCTAssertEqual(error("")?.code, .truncated)
        XCTAssertTrue(error("v=1\r\n")?.message.hasPrefix("SDP line 1") ?? false)
        XCTAssertTrue(error("v=0\r\no=- 1 2 IN IP4\r\n")?.message.contains("6 fields") ?? false)
        XCTAssertTrue(error("v=0\r\no=- x 2 IN IP4 1.2.3.4\r\n")?.message.contains("decimal") ?? false)
        XCTAssertTrue(error(header + "v=0\r\n")?.message.hasPrefix("SDP line 5") ?? false)
        XCTAssertTrue(error(header + "\r\n")?.message.hasPrefix("SDP line 5") ?? false)
        XCTAssertTrue(error(header + "A=x\r\n")?.message.hasPrefix("SDP line 5") ?? false)
        XCTAssertTrue(error(header + "a=x\0y\r\n")?.message.contains("NUL") ?? false)
        XCTAssertTrue(error(header + "t=0 0 0\r\n")?.message.contains("timing") ?? false)
        XCTAssertTrue(error(header + "c=IN IP4\r\n")?.message.contains("connection") ?? false)
    }

    func testInvalidUTF8IsAParseError() {
        XCTAssertThrowsError(try SessionDescription.parse(bytes: [0x76, 0x3d, 0x30, 0x0d, 0x0a, 0xff])) { error in
            XCTAssertTrue("\(error)".contains("UTF-8"))
        }
    }

    func testUnknownLinesAndAttributesAreKept() throws {
        let text = header + "b=AS:500\r\na=x-custom:1 2\r\nm=audio 9/2 RTP/AVP 0\r\ni=info\r\na=sendrecv\r\na=flag\r\n"
        let sdp = try SessionDescription.parse(text)
        XCTAssertEqual(sdp.serialize(), text)
        XCTAssertEqual(sdp.lines[1].field, .other(type: "b", value: "AS:500"))
        XCTAssertEqual(sdp.attributes, [.other(name: "x-custom", value: "1 2")])
        XCTAssertEqual(sdp.media[0].portCount, 2)
        XCTAssertEqual(sdp.media[0].attributes, [.direction(.sendrecv), .other(name: "flag", value: nil)])
        XCTAssertEqual(sdp.media[0].codecs, [])
    }
}
