import Net
import RTCBase
import WebRTCTestKit
import XCTest

final class HTTPParserTests: XCTestCase {
    static let srsFiles = ["api-clients.redirect", "api-clients.response", "api-streams-after-whip-delete.response",
                           "api-streams.redirect", "api-streams.response", "api-summaries.response", "api-versions.response",
                           "error-busy-stream.response", "error-no-msid-ssrc.response", "error-not-json.response",
                           "error-vp8-only.response", "play.response", "publish.response", "whep.response", "whip.response",
                           "whip-delete.response"].map { "srs/\($0).http" }
    static let janusFiles = ["create.response", "destroy.response", "info.response"].map { "janus/\($0).http" }

    func parseResponse(_ bytes: [UInt8], pieceSize: Int) throws -> [HTTPResponse] {
        var parser = HTTPResponseParser()
        var out: [HTTPResponse] = []
        var index = 0
        while index < bytes.count {
            parser.append(bytes[index..<min(index + pieceSize, bytes.count)])
            index += pieceSize
            while let response = try parser.next() { out.append(response) }
        }
        if let last = try parser.finish() { out.append(last) }
        return out
    }

    func testSRSResponsesParseWithContentLengthBodies() throws {
        for file in Self.srsFiles {
            let bytes = try Fixtures.bytes(file)
            let responses = try parseResponse(bytes, pieceSize: bytes.count)
            XCTAssertEqual(responses.count, 1, file)
            let response = try XCTUnwrap(responses.first)
            XCTAssertEqual(response.headers["server"], "SRS/7.0.18(Hang)", file)
            XCTAssertFalse(response.keepsAlive, "SRS sends Connection: Close")
            XCTAssertEqual(response.body.count, Int(response.headers["content-length"] ?? ""), file)
            XCTAssertTrue(bytes.suffix(response.body.count).elementsEqual(response.body), file)
        }
        let publish = try parseResponse(Fixtures.bytes("srs/publish.response.http"), pieceSize: 1 << 20)[0]
        XCTAssertEqual(publish.status, 200)
        XCTAssertTrue(publish.bodyText.hasPrefix("{\"code\":0"), publish.bodyText)
        let whip = try parseResponse(Fixtures.bytes("srs/whip.response.http"), pieceSize: 1 << 20)[0]
        XCTAssertEqual(whip.status, 201)
        XCTAssertEqual(whip.reason, "Created")
        XCTAssertEqual(whip.headers["CONTENT-TYPE"], "application/sdp")
        XCTAssertTrue(whip.headers["Location"]?.hasPrefix("/rtc/v1/whip/?action=delete&token=") ?? false)
        XCTAssertTrue(whip.bodyText.hasPrefix("v=0\r\n"))
        let redirect = try parseResponse(Fixtures.bytes("srs/api-streams.redirect.http"), pieceSize: 1 << 20)[0]
        XCTAssertEqual(redirect.status, 302)
        XCTAssertEqual(redirect.headers["location"], "/api/v1/streams/?count=100")
        let busy = try parseResponse(Fixtures.bytes("srs/error-busy-stream.response.http"), pieceSize: 1 << 20)[0]
        XCTAssertEqual(busy.bodyText, "{\"code\":400}")
    }

    func testJanusChunkedResponsesDecodeToTheJSONBody() throws {
        for file in Self.janusFiles {
            let bytes = try Fixtures.bytes(file)
            let response = try XCTUnwrap(parseResponse(bytes, pieceSize: bytes.count).first, file)
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.headers["transfer-encoding"], "chunked")
            XCTAssertEqual(response.body.first, UInt8(ascii: "{"), file)
            XCTAssertEqual(response.body.last, UInt8(ascii: "}"), file)
            XCTAssertTrue(response.keepsAlive)
        }
        let create = try parseResponse(Fixtures.bytes("janus/create.response.http"), pieceSize: 4096)[0]
        XCTAssertEqual(create.body.count, 0x6F)  // the single chunk "6F"
        XCTAssertTrue(create.bodyText.contains("\"janus\": \"success\""))
        XCTAssertTrue(create.bodyText.contains("1290752433445316"))
    }

    func testSplitAtEveryByteGivesTheSameMessages() throws {
        for file in Self.srsFiles + Self.janusFiles {
            let bytes = try Fixtures.bytes(file)
            XCTAssertEqual(try parseResponse(bytes, pieceSize: 1), try parseResponse(bytes, pieceSize: bytes.count), file)
        }
        for file in ["srs/error-whip-bad-sdp.request.http", "srs/whip-delete.request.http", "janus/create.request.http"] {
            let bytes = try Fixtures.bytes(file)
            var whole = HTTPRequestParser()
            whole.append(bytes)
            let expected = try XCTUnwrap(whole.next(), file)
            var split = HTTPRequestParser()
            var got: [HTTPRequest] = []
            for byte in bytes {
                split.append([byte])
                while let request = try split.next() { got.append(request) }
            }
            XCTAssertEqual(got, [expected], file)
        }
    }

    func testCapturedRequestsParse() throws {
        var parser = HTTPRequestParser()
        parser.append(try Fixtures.bytes("srs/error-whip-bad-sdp.request.http"))
        let whip = try XCTUnwrap(parser.next())
        XCTAssertEqual(whip.method, .post)
        XCTAssertEqual(whip.target, "/rtc/v1/whip/?app=live&stream=badsdp")
        XCTAssertEqual(whip.headers["host"], "127.0.0.1:1985")
        XCTAssertEqual(whip.body, Array("v=0\r\nthis is not an sdp\r\n".utf8))
        var janus = HTTPRequestParser()
        janus.append(try Fixtures.bytes("janus/create.request.http"))
        XCTAssertEqual(try janus.next()?.body.count, 54)
    }

    func testChunkExtensionsAndTrailersAreHandled() throws {
        let wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
            + "4;name=value\r\nWiki\r\n"  // chunk-size 4 with an extension
            + "5 ; x\r\npedia\r\n"
            + "0\r\nExpires: never\r\nX-Sum: 9\r\n\r\n"
        let responses = try parseResponse(Array(wire.utf8), pieceSize: 3)
        XCTAssertEqual(responses.first?.bodyText, "Wikipedia")
        XCTAssertEqual(responses.first?.trailers["x-sum"], "9")
        XCTAssertEqual(responses.first?.trailers.count, 2)
    }

    func testResponseWithoutLengthRunsUntilEOFAndHeadHasNoBody() throws {
        var parser = HTTPResponseParser()
        parser.append(Array("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nall of".utf8))
        XCTAssertNil(try parser.next())
        parser.append(Array(" it".utf8))
        XCTAssertNil(try parser.next())
        XCTAssertEqual(try parser.finish()?.bodyText, "all of it")

        var head = HTTPResponseParser()
        head.expectResponse(to: .head)
        head.expectResponse(to: .get)
        head.append(Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi".utf8))
        XCTAssertEqual(try head.next()?.body, [])
        XCTAssertEqual(try head.next()?.status, 204)
        XCTAssertEqual(try head.next()?.bodyText, "hi")
    }

    func testInterimResponsesAreSkippedAnd101StopsParsing() throws {
        var parser = HTTPResponseParser()
        parser.append(Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\u{81}\u{0}".utf8))
        XCTAssertEqual(try parser.next()?.status, 101)
        XCTAssertNil(try parser.next())
        XCTAssertEqual(parser.takeRemainingBytes(), [0xc2, 0x81, 0x00])  // U+0081 is two bytes in UTF-8
    }

    func testLimitsAreEnforcedWithCodes() {
        let limits = HTTPLimits(maxHeaderBytes: 64, maxBodyBytes: 10)
        var longHead = HTTPRequestParser(limits: limits)
        longHead.append(Array("GET / HTTP/1.1\r\nX-Long: \(String(repeating: "a", count: 100))".utf8))
        XCTAssertThrowsError(try longHead.next()) { XCTAssertEqual(($0 as? ParseError)?.code, .headerTooLarge) }
        XCTAssertThrowsError(try longHead.next(), "stays failed")

        var bigBody = HTTPRequestParser(limits: limits)
        bigBody.append(Array("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n".utf8))
        XCTAssertThrowsError(try bigBody.next()) { XCTAssertEqual(($0 as? ParseError)?.code, .bodyTooLarge) }

        var bigChunks = HTTPResponseParser(limits: limits)
        bigChunks.append(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n".utf8))
        XCTAssertThrowsError(try bigChunks.next()) { XCTAssertEqual(($0 as? ParseError)?.code, .bodyTooLarge) }

        var eofBody = HTTPResponseParser(limits: limits)
        eofBody.append(Array("HTTP/1.1 200 OK\r\n\r\n0123456789abc".utf8))
        XCTAssertThrowsError(try eofBody.next()) { XCTAssertEqual(($0 as? ParseError)?.code, .bodyTooLarge) }
    }

    func testMalformedMessagesAreRejected() {
        let bad = ["GET /\r\n\r\n", "GET / HTTP/2.0\r\n\r\n", "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
                   "GET / HTTP/1.1\r\nNoColon\r\n\r\n", "POST / HTTP/1.1\r\nContent-Length: 1, 2\r\n\r\n",
                   "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
                   "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"]
        for text in bad {
            var parser = HTTPRequestParser()
            parser.append(Array(text.utf8))
            XCTAssertThrowsError(try parser.next(), text)
        }
        var response = HTTPResponseParser()
        response.append(Array("HTTP/1.1 20 OK\r\n\r\n".utf8))
        XCTAssertThrowsError(try response.next())
        var cut = HTTPResponseParser()
        cut.append(Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab".utf8))
        XCTAssertNil(try cut.next())
        XCTAssertThrowsError(try cut.finish()) { XCTAssertEqual(($0 as? ParseError)?.code, .truncated) }
    }

    func testSerializersAreByteExact() {
        let endpoint = Endpoint(scheme: .http, host: "127.0.0.1", port: 1985, path: "/rtc/v1/publish/")
        let request = HTTPRequest(method: .post, endpoint: endpoint, headers: ["Content-Type": "application/json"],
                                  body: Array("{}".utf8))
        XCTAssertEqual(String(decoding: request.serialized(), as: UTF8.self),
                       "POST /rtc/v1/publish/ HTTP/1.1\r\nHost: 127.0.0.1:1985\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        let delete = HTTPRequest(method: .delete, target: "/s/1", headers: ["Host": "h"])
        XCTAssertEqual(String(decoding: delete.serialized(), as: UTF8.self), "DELETE /s/1 HTTP/1.1\r\nHost: h\r\n\r\n")
        let created = HTTPResponse(status: 201, headers: ["Location": "/s/1"], body: Array("v=0\r\n".utf8))
        XCTAssertEqual(String(decoding: created.serialized(), as: UTF8.self),
                       "HTTP/1.1 201 Created\r\nLocation: /s/1\r\nContent-Length: 5\r\n\r\nv=0\r\n")
        let noContent = HTTPResponse(status: 204, body: Array("dropped".utf8))
        XCTAssertEqual(String(decoding: noContent.serialized(), as: UTF8.self), "HTTP/1.1 204 No Content\r\n\r\n")
        let chunked = HTTPResponse(status: 200, headers: ["Transfer-Encoding": "chunked"], body: Array(repeating: 0x61, count: 26),
                                   trailers: ["X-T": "1"])
        XCTAssertEqual(String(decoding: chunked.serialized(), as: UTF8.self),
                       "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1A\r\n" + String(repeating: "a", count: 26)
                       + "\r\n0\r\nX-T: 1\r\n\r\n")
    }

    func testSerializedMessagesParseBack() throws {
        let request = HTTPRequest(method: .patch, target: "/session", headers: ["Host": "h", "If-Match": "\"*\""],
                                  body: Array("a=ice-ufrag:x\r\n".utf8))
        var parser = HTTPRequestParser()
        parser.append(request.serialized())
        let back = try XCTUnwrap(parser.next())
        XCTAssertEqual(back.body, request.body)
        XCTAssertEqual(back.headers["if-match"], "\"*\"")
        XCTAssertEqual(back.headers["content-length"], "15")
    }
}
