import Net
import RTCBase
import WebRTCTestKit
import XCTest

/// 100,000 random and mutated inputs per parser: none may trap.
final class HTTPFuzzTests: XCTestCase {
    func testRequestParserSurvivesFuzzing() throws {
        let seeds = try ["srs/error-whip-bad-sdp.request.http", "srs/whip-delete.request.http", "janus/create.request.http"]
            .map(Fixtures.bytes) + [Array("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x\r\nabc\r\n0\r\nT: 1\r\n\r\n".utf8)]
        var fuzzer = Fuzzer(seeds: seeds, seed: 1, maxLength: 600)
        var parsed = 0
        fuzzer.run(iterations: 100_000) { input in
            var parser = HTTPRequestParser(limits: HTTPLimits(maxHeaderBytes: 512, maxBodyBytes: 256))
            parser.append(input)
            while let _ = try? parser.next() { parsed += 1 }
        }
        XCTAssertGreaterThan(parsed, 1_000, "mutations should still reach complete requests")
    }

    func testResponseParserSurvivesFuzzing() throws {
        let seeds = try ["srs/whip-delete.response.http", "srs/error-busy-stream.response.http", "janus/create.response.http",
                         "srs/api-streams.redirect.http"].map(Fixtures.bytes)
        var fuzzer = Fuzzer(seeds: seeds, seed: 2, maxLength: 600)
        var parsed = 0
        fuzzer.run(iterations: 100_000) { input in
            var client = HTTPClientConnection(limits: HTTPLimits(maxHeaderBytes: 512, maxBodyBytes: 256))
            client.send(HTTPRequest(method: .get, target: "/"), now: .zero)
            let cut = input.count / 2
            client.handle(input[..<cut], now: .zero)
            client.handle(input[cut...], now: .zero)
            client.handleEOF()
            while let event = client.pollEvent() {
                if case .response = event { parsed += 1 }
            }
        }
        XCTAssertGreaterThan(parsed, 1_000)
    }
}
