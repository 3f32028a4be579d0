import Net
import RTCBase
import Signaling
import WebRTCTestKit
import XCTest

/// Every path by which a server's bytes reach an adapter, with 100,000 random and mutated
/// inputs each: nothing may trap, and every input ends in an event or a new request.
final class CallSetupFuzzTests: XCTestCase {
    private let iterations = 100_000

    /// Half mutations of the captured seeds (kept whole, up to 4 KB), half random bytes
    /// up to 512 (random inputs of 4 KB would spend the test's time in the generator).
    private func fuzz(seeds: [[UInt8]], seed: UInt64, _ body: ([UInt8]) -> Void) {
        var mutator = Fuzzer(seeds: seeds, seed: seed, maxLength: 4096)
        var random = Fuzzer(seeds: [], seed: seed + 1, maxLength: 512)
        for index in 0..<iterations {
            body(index % 2 == 0 ? mutator.mutated() : random.random())
        }
    }

    /// Parses `bytes` as an HTTP response to `request` (EOF after them), or nil.
    private func response(_ bytes: [UInt8], to request: CallSetupRequest) -> HTTPClientEvent {
        var connection = HTTPClientConnection()
        connection.send(request.request, now: Exchange.start)
        connection.handle(bytes, now: Exchange.start)
        connection.handleEOF()
        // EOF always produces an event; the fallback only keeps the compiler content.
        return connection.pollEvent() ?? .response(HTTPResponse(status: 599), request: request.request)
    }

    private func drain(_ setup: inout some CallSetup) -> Int {
        var count = 0
        while setup.pollEvent() != nil { count += 1 }
        while setup.pollRequest() != nil { count += 1 }
        return count
    }

    func testSRSResponsesNeverTrap() throws {
        let seeds = try ["publish.response.http", "play.response.http", "error-busy-stream.response.http",
                         "error-no-msid-ssrc.response.http", "error-not-json.response.http"].map { try Fixtures.bytes("srs/\($0)") }
        var base = SRSCallSetup(api: Endpoint(scheme: .http, host: "127.0.0.1", port: 1985), streamURL: "webrtc://127.0.0.1/live/s",
                                mode: .publish, offer: "v=0\r\n")
        base.start(now: Exchange.start)
        let request = try Exchange.next(&base)
        var outcomes = 0
        fuzz(seeds: seeds, seed: 0x5125) { input in
            var setup = base
            setup.handle(response(input, to: request), for: request.id, now: Exchange.start)
            outcomes += drain(&setup)
        }
        XCTAssertEqual(outcomes, iterations, "exactly one event per response")
    }

    func testWHIPAndWHEPResponsesNeverTrap() throws {
        var seeds = try ["whip.response.http", "whep.response.http", "whip-delete.response.http"].map { try Fixtures.bytes("srs/\($0)") }
        seeds.append(Exchange.reply(307, [("Location", "//127.0.0.1:9/x?y")]))
        seeds.append(Exchange.reply(503, [("Retry-After", "120")], body: #"{"title":"busy","detail":"later"}"#))
        seeds.append(Exchange.reply(406, [("Location", "../s/1"), ("ETag", "\"e\"")], body: "v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n"))
        seeds.append(Exchange.reply(201, [("Location", "s/2"), ("Link", #"<stun:a>; rel="ice-server", <turn:b>; rel=ice-server; username="u\"x"; credential=p"#)],
                                    body: "v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"))
        var bases: [(WHIPCallSetup, CallSetupRequest)] = []
        for kind in [WHIPCallSetup.Kind.whip, .whep] {
            var setup = WHIPCallSetup(kind: kind, endpoint: try Endpoint(parsing: "http://127.0.0.1:8080/w/a"), offer: "v=0\r\n")
            setup.start(now: Exchange.start)
            bases.append((setup, try Exchange.next(&setup)))
        }
        var index = 0
        fuzz(seeds: seeds, seed: 0x3114) { input in
            index += 1
            var (setup, request) = bases[index % 2]
            setup.handle(response(input, to: request), for: request.id, now: Exchange.start)
            // Whatever came of it, a hang-up must still end cleanly.
            setup.hangUp(now: Exchange.start)
            _ = drain(&setup)
            _ = IceServerLink.parse([String(decoding: input.prefix(512), as: UTF8.self)])
            _ = RetryAfter(fieldValue: String(decoding: input.prefix(64), as: UTF8.self))
        }
    }

    func testJanusMessagesNeverTrap() throws {
        // Every body Janus sent in the captures, as the long poll and as POST answers see them.
        var seeds: [[UInt8]] = []
        for fixture in ["echo-vp8.jsonl", "videoroom.jsonl"] {
            for line in try Fixtures.text("janus/\(fixture)").split(separator: "\n") {
                let json = try JSONValue(parsing: line)
                if json["dir"]?.stringValue == "recv", let body = json["body"] { seeds.append(Array(body.serialized.utf8)) }
            }
        }
        seeds.append(Array(#"[{"janus":"keepalive"},{"janus":"hangup","reason":"x"}]"#.utf8))
        let session: Int64 = 7_123_339_552_004_792
        var base = JanusCallSetup(server: Endpoint(scheme: .http, host: "127.0.0.1", port: 8088, path: "/janus"),
                                  plugin: .videoRoomPublisher(room: nil, createOptions: [], display: "f"), offer: "v=0\r\n", seed: 5)
        base.start(now: Exchange.start)
        let create = try Exchange.next(&base)
        let transaction = try XCTUnwrap(try JSONValue(parsing: create.request.body)["transaction"]?.stringValue)
        let created = HTTPResponse(status: 200, body: Array(#"{"janus":"success","transaction":"\#(transaction)","data":{"id":\#(session)}}"#.utf8))
        base.handle(.response(created, request: create.request), for: create.id, now: Exchange.start)
        let poll = try Exchange.next(&base)
        let attach = try Exchange.next(&base)
        var index = 0
        fuzz(seeds: seeds, seed: 0x7a05) { input in
            index += 1
            var setup = base
            let target = index % 2 == 0 ? poll : attach
            let reply = HTTPResponse(status: 200, body: input)
            setup.handle(.response(reply, request: target.request), for: target.id, now: Exchange.start)
            setup.hangUp(now: Exchange.start)
            _ = drain(&setup)
        }
    }
}
