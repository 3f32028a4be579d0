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

    /// Everything a parser yields from one input, errors included.
    static func outcome(_ input: [UInt8], pieces: Int) -> [String] {
        var parser = HTTPResponseParser(limits: HTTPLimits(maxHeaderBytes: 512, maxBodyBytes: 256))
        var out: [String] = []
        let size = max(1, input.count / max(1, pieces))
        var index = 0
        repeat {
            parser.append(input[index..<min(index + size, input.count)])
            index += size
            do {
                while let response = try parser.next() { out.append("\(response.status) \(response.headers.count) \(response.body)") }
            } catch {
                out.append("error \(error.code)")
                return out
            }
        } while index < input.count
        do {
            if let last = try parser.finish() { out.append("eof \(last.status) \(last.body)") }
        } catch {
            out.append("error \(error.code)")
        }
        return out
    }

    func testSplitFeedingMatchesWholeFeedingOnMutatedInputs() throws {
        let seeds = try ["srs/whip-delete.response.http", "srs/error-busy-stream.response.http", "janus/create.response.http"]
            .map(Fixtures.bytes) + [Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x\r\nabc\r\n0\r\nT: 1\r\n\r\n".utf8)]
        var fuzzer = Fuzzer(seeds: seeds, seed: 9, maxLength: 400)
        for _ in 0..<3_000 {
            let input = fuzzer.mutated()
            let whole = Self.outcome(input, pieces: 1)
            XCTAssertEqual(Self.outcome(input, pieces: input.count), whole, String(decoding: input, as: UTF8.self))
            XCTAssertEqual(Self.outcome(input, pieces: 3), whole)
        }
    }
}
