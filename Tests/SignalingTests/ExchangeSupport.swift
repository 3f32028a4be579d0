import Net
import RTCBase
import Signaling
import WebRTCTestKit
import XCTest

/// Carries an adapter's requests through a real `HTTPClientConnection` (the code the
/// runner uses), with captured server bytes as the other end.
enum Exchange {
    static let start = Instant(nanoseconds: 1_000_000_000)

    /// The adapter's next request; fails the test when there is none.
    static func next(_ setup: inout some CallSetup, file: StaticString = #filePath, line: UInt = #line) throws -> CallSetupRequest {
        try XCTUnwrap(setup.pollRequest(), "the adapter sent no request", file: file, line: line)
    }

    /// Sends `request` on a fresh connection, feeds it `reply` (nil: the server closes
    /// without a byte), then EOF, and hands the one result to the adapter.
    static func answer(_ request: CallSetupRequest, with reply: [UInt8]?, to setup: inout some CallSetup,
                       now: Instant = start) throws {
        var connection = HTTPClientConnection(responseTimeout: request.timeout)
        connection.send(request.request, now: now)
        XCTAssertEqual(connection.pollTransmit(), request.request.serialized())
        if let reply { connection.handle(reply, now: now) }
        connection.handleEOF()
        let result = try XCTUnwrap(connection.pollEvent())
        setup.handle(result, for: request.id, now: now)
    }

    /// A response built in the test, as the server would send it.
    static func reply(_ status: Int, _ headers: [(String, String)] = [], body: String = "") -> [UInt8] {
        var fields = HTTPHeaders(headers)
        fields.add("Connection", "close")
        return HTTPResponse(status: status, headers: fields, body: Array(body.utf8)).serialized()
    }

    /// Every event the adapter has queued.
    static func events(_ setup: inout some CallSetup) -> [CallSetupEvent] {
        var events: [CallSetupEvent] = []
        while let event = setup.pollEvent() { events.append(event) }
        return events
    }

    /// The message of the one `.failed` event among `events`.
    static func failure(_ events: [CallSetupEvent], file: StaticString = #filePath, line: UInt = #line) -> CallSetupError? {
        let failures = events.compactMap { if case .failed(let error) = $0 { error } else { nil } }
        XCTAssertEqual(failures.count, 1, "events: \(events)", file: file, line: line)
        return failures.first
    }

    /// The SDP of the `.answer` among `events`.
    static func answerSDP(_ events: [CallSetupEvent]) -> String? {
        events.lazy.compactMap { if case .answer(let sdp) = $0 { sdp } else { nil } }.first
    }
}

extension HTTPRequest {
    /// The body as UTF-8 text.
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}
