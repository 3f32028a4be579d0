import Net
import RTCBase
import XCTest

final class HTTPConnectionTests: XCTestCase {
    let t0 = Instant.zero

    /// Moves bytes both ways until neither side has anything to say.
    func pump(_ client: inout HTTPClientConnection, _ server: inout HTTPServerConnection,
              answer: (HTTPRequest) -> HTTPResponse) {
        var moved = true
        while moved {
            moved = false
            if let bytes = client.pollTransmit() { server.handle(bytes, now: t0); moved = true }
            while let event = server.pollEvent() {
                if case .request(let request) = event { server.respond(answer(request), now: t0) }
                moved = true
            }
            if let bytes = server.pollTransmit() { client.handle(bytes, now: t0); moved = true }
        }
    }

    func responses(_ client: inout HTTPClientConnection) -> [HTTPClientEvent] {
        var out: [HTTPClientEvent] = []
        while let event = client.pollEvent() { out.append(event) }
        return out
    }

    func testClientAndServerKeepAliveAndAnswerInOrder() {
        var client = HTTPClientConnection()
        var server = HTTPServerConnection(now: .zero)
        for index in 0..<3 {
            client.send(HTTPRequest(method: .post, target: "/echo/\(index)", headers: ["Host": "x"], body: Array("body\(index)".utf8)), now: t0)
        }
        pump(&client, &server) { request in
            HTTPResponse(status: 200, headers: ["Transfer-Encoding": "chunked"], body: Array((request.target + ":").utf8) + request.body)
        }
        let bodies = responses(&client).compactMap { event -> String? in
            if case .response(let response, _) = event { return response.bodyText }
            return nil
        }
        XCTAssertEqual(bodies, ["/echo/0:body0", "/echo/1:body1", "/echo/2:body2"])
        XCTAssertFalse(client.isClosed)
        XCTAssertFalse(server.isClosed)
        XCTAssertEqual(client.outstandingRequests, 0)
    }

    func testServerAnswersPipelinedRequestsOneAtATime() {
        var server = HTTPServerConnection(now: .zero)
        server.handle(Array("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), now: t0)
        guard case .request(let first) = server.pollEvent() else { return XCTFail("no first request") }
        XCTAssertEqual(first.target, "/a")
        XCTAssertNil(server.pollEvent(), "second request waits for the first answer")
        server.respond(HTTPResponse(status: 200, body: Array("A".utf8)), now: t0)
        guard case .request(let second) = server.pollEvent() else { return XCTFail("no second request") }
        XCTAssertEqual(second.target, "/b")
        server.respond(HTTPResponse(status: 200, body: Array("B".utf8)), now: t0)
        XCTAssertTrue(server.isClosed)
        XCTAssertEqual(String(decoding: server.pollTransmit() ?? [], as: UTF8.self),
                       "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nAHTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nB")
    }

    func testServerRejectsOversizedHeadersWith431AndCloses() {
        var server = HTTPServerConnection(limits: HTTPLimits(maxHeaderBytes: 100), now: t0)
        server.handle(Array("GET / HTTP/1.1\r\nCookie: \(String(repeating: "c", count: 200))\r\n\r\n".utf8), now: t0)
        guard case .badRequest(let error) = server.pollEvent() else { return XCTFail("expected badRequest") }
        XCTAssertEqual(error.code, .headerTooLarge)
        XCTAssertTrue(String(decoding: server.pollTransmit() ?? [], as: UTF8.self).hasPrefix("HTTP/1.1 431 "))
        XCTAssertTrue(server.isClosed)
    }

    func testEOFBeforeStatusLineIsReportedAsClosedWithoutAnswer() throws {
        var client = HTTPClientConnection()
        var request = HTTPRequest(method: .post, target: "/rtc/v1/whip/?app=live&stream=badsdp", headers: ["Host": "h"])
        request.body = Array("v=0\r\nthis is not an sdp\r\n".utf8)
        client.send(request, now: t0)
        client.send(HTTPRequest(method: .get, target: "/second"), now: t0)
        XCTAssertNotNil(client.pollTransmit())
        client.handleEOF()
        let events = responses(&client)
        XCTAssertEqual(events.count, 2)
        guard case .failed(let error) = events[0] else { return XCTFail("first should fail") }
        XCTAssertEqual(error.code, .closedWithoutAnswer)
        XCTAssertEqual(error.description, "server closed the connection without an answer")
        XCTAssertEqual(error.request.target, "/rtc/v1/whip/?app=live&stream=badsdp")
        guard case .failed(let unsent) = events[1] else { return XCTFail("second should fail") }
        XCTAssertEqual(unsent.code, .notSent)
        XCTAssertTrue(client.isClosed)
    }

    func testEOFInsideResponseAndEOFFramedBodyAreTold() {
        var cut = HTTPClientConnection()
        cut.send(HTTPRequest(method: .get, target: "/"), now: t0)
        cut.handle(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8), now: t0)
        cut.handleEOF()
        guard case .failed(let error) = cut.pollEvent() else { return XCTFail("expected failure") }
        XCTAssertEqual(error.code, .closedDuringResponse)

        var eof = HTTPClientConnection()
        eof.send(HTTPRequest(method: .get, target: "/"), now: t0)
        eof.handle(Array("HTTP/1.1 200 OK\r\n\r\nuntil the end".utf8), now: t0)
        XCTAssertNil(eof.pollEvent())
        eof.handleEOF()
        guard case .response(let response, _) = eof.pollEvent() else { return XCTFail("expected response") }
        XCTAssertEqual(response.bodyText, "until the end")
    }

    func testSecondRequestWaitsAndConnectionCloseFailsItAsNotSent() {
        var client = HTTPClientConnection()
        client.send(HTTPRequest(method: .get, target: "/1"), now: t0)
        client.send(HTTPRequest(method: .get, target: "/2"), now: t0)
        let written = String(decoding: client.pollTransmit() ?? [], as: UTF8.self)
        XCTAssertTrue(written.hasPrefix("GET /1 "))
        XCTAssertFalse(written.contains("/2"), "one request in flight at a time")
        client.handle(Array("HTTP/1.1 200 OK\r\nConnection: Close\r\nContent-Length: 0\r\n\r\n".utf8), now: t0)
        guard case .response = client.pollEvent(), case .failed(let second) = client.pollEvent() else {
            return XCTFail("expected a response then a failure")
        }
        XCTAssertEqual(second.code, .notSent)
        XCTAssertEqual(second.request.target, "/2")
        XCTAssertTrue(client.isClosed)
    }

    func testResponseTimeoutFiresAtTheDeadline() {
        var client = HTTPClientConnection(responseTimeout: .seconds(2))
        client.send(HTTPRequest(method: .get, target: "/slow"), now: t0)
        XCTAssertEqual(client.pollTimeout(), t0 + .seconds(2))
        client.handleTimeout(now: t0 + .milliseconds(1999))
        XCTAssertNil(client.pollEvent())
        client.handleTimeout(now: t0 + .seconds(2))
        guard case .failed(let error) = client.pollEvent() else { return XCTFail("expected timeout") }
        XCTAssertEqual(error.code, .timedOut)
        XCTAssertNil(client.pollTimeout())
    }

    func testServerCutsOffASlowRequestWith408() {
        var server = HTTPServerConnection(requestTimeout: .seconds(5), idleTimeout: .seconds(30), now: t0)
        XCTAssertEqual(server.pollTimeout(), t0 + .seconds(30), "idle before any byte")
        server.handle(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8), now: t0 + .seconds(1))
        XCTAssertNil(server.pollEvent())
        XCTAssertEqual(server.pollTimeout(), t0 + .seconds(6))
        server.handle(Array("X-Slow: 1\r\n".utf8), now: t0 + .seconds(4))
        XCTAssertEqual(server.pollTimeout(), t0 + .seconds(6), "trickling bytes does not extend the deadline")
        server.handleTimeout(now: t0 + .seconds(6))
        XCTAssertEqual(server.pollEvent(), .timedOut(idle: false))
        XCTAssertTrue(String(decoding: server.pollTransmit() ?? [], as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        XCTAssertTrue(server.isClosed)
    }

    func testServerClosesAnIdleKeepAliveConnectionAfterItsAnswer() {
        var server = HTTPServerConnection(requestTimeout: .seconds(5), idleTimeout: .seconds(30), now: t0)
        server.handle(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: t0)
        guard case .request = server.pollEvent() else { return XCTFail("no request") }
        XCTAssertNil(server.pollTimeout(), "no timer while the application owes an answer")
        server.respond(HTTPResponse(status: 204), now: t0 + .seconds(100))
        XCTAssertEqual(server.pollTimeout(), t0 + .seconds(130))
        server.handleTimeout(now: t0 + .seconds(130))
        XCTAssertEqual(server.pollEvent(), .timedOut(idle: true))
        XCTAssertTrue(server.isClosed)
    }
}
