import Net
import RTCBase
import Signaling
import WebRTCTestKit
import XCTest

/// Replays a captured Janus exchange (Tests/Fixtures/janus/*.jsonl) against one or more
/// `JanusCallSetup`s: each `send` line must be the adapter's next POST (same path, same
/// JSON once the transaction is mapped), each `recv` line is answered to the request it
/// belongs to, in the captured order, so events that came before their POST's `ack`
/// arrive that way here too. Long-poll GETs are not in the capture: a `recv` on a GET
/// requires the adapter to have one outstanding.
struct JanusReplay {
    struct Line {
        var send: Bool
        var milliseconds: Double
        var method: String
        var path: String
        var body: JSONValue
    }

    let lines: [Line]
    /// The adapters, in the order of their `create` lines.
    var setups: [JanusCallSetup] = []
    var events: [[CallSetupEvent]] = []
    /// Called at each `create` line to make the next adapter (given those before).
    let make: ([JanusCallSetup]) -> JanusCallSetup
    /// Requests the adapters sent that are not answered yet, per adapter.
    private var open: [[CallSetupRequest]] = []
    /// POSTs matched to a `send` line, waiting for their `recv`.
    private var matched: [[CallSetupRequest]] = []
    private var transactions: [String: String] = [:]
    /// Capture transactions of requests the adapter does not make (listparticipants).
    private var skipped: Set<String> = []
    private var wrapInArray = false

    init(fixture: String, make: @escaping ([JanusCallSetup]) -> JanusCallSetup) throws {
        lines = try Fixtures.text("janus/\(fixture)").split(separator: "\n").map { text in
            let json = try JSONValue(parsing: text)
            let http = json["http"]?.stringValue?.split(separator: " ") ?? []
            return Line(send: json["dir"]?.stringValue == "send", milliseconds: json["t_ms"]?.doubleValue ?? 0,
                        method: http.first.map(String.init) ?? "", path: http.dropFirst().first.map(String.init) ?? "",
                        body: json["body"] ?? .null)
        }
        self.make = make
    }

    static func now(_ milliseconds: Double) -> Instant { Exchange.start + .microseconds(Int64(milliseconds * 1000)) }

    mutating func run(file: StaticString = #filePath, line: UInt = #line) throws {
        for (number, entry) in lines.enumerated() {
            let now = JanusReplay.now(entry.milliseconds)
            let context = "line \(number + 1): \(entry.method) \(entry.path) \(entry.body["janus"]?.stringValue ?? "")"
            if entry.send {
                try send(entry, now: now, context: context)
            } else {
                try receive(entry, now: now, context: context)
            }
            for index in setups.indices { collect(index) }
        }
    }

    private mutating func collect(_ index: Int) {
        while let request = setups[index].pollRequest() { open[index].append(request) }
        while let event = setups[index].pollEvent() { events[index].append(event) }
    }

    /// The adapter whose session is in `path`; for `/janus`, the one with a create open.
    private func owner(of path: String) -> Int? {
        let parts = path.split(separator: "?")[0].split(separator: "/")
        guard parts.count >= 2, let session = Int64(parts[1]) else {
            return setups.indices.first { index in (open[index] + matched[index]).contains { $0.request.target == "/janus" } }
        }
        return setups.firstIndex { $0.sessionID == session }
    }

    private mutating func send(_ entry: Line, now: Instant, context: String) throws {
        let captured = try XCTUnwrap(entry.body["transaction"]?.stringValue, context)
        if entry.body["body"]?["request"]?.stringValue == "listparticipants" {
            skipped.insert(captured)  // a query this adapter never makes
            return
        }
        if entry.path == "/janus" {
            setups.append(make(setups))
            events.append([])
            open.append([])
            matched.append([])
            setups[setups.count - 1].start(now: now)
        }
        let index = try XCTUnwrap(owner(of: entry.path) ?? (entry.path == "/janus" ? setups.count - 1 : nil), context)
        collect(index)
        if !open[index].contains(where: { $0.request.method == .post }) {
            // Nothing queued: this line is the runner's doing.
            if entry.body["janus"]?.stringValue == "trickle" {
                setups[index].trickle(nil, now: now)
            } else if entry.body["jsep"]?["type"]?.stringValue == "answer", let sdp = entry.body["jsep"]?["sdp"]?.stringValue {
                setups[index].answer(sdp, now: now)
            } else {
                setups[index].hangUp(now: now)
            }
            collect(index)
        }
        let position = try XCTUnwrap(open[index].firstIndex { $0.request.method == .post }, "no POST for \(context)")
        let request = open[index].remove(at: position)
        XCTAssertEqual(request.request.target, entry.path, context)
        XCTAssertEqual(request.request.headers["Content-Type"], "application/json", context)
        let sent = try JSONValue(parsing: request.request.body)
        let ours = try XCTUnwrap(sent["transaction"]?.stringValue, context)
        transactions[captured] = ours
        XCTAssertEqual(sent, JanusReplay.replacingTransaction(entry.body, with: ours), context)
        matched[index].append(request)
    }

    private mutating func receive(_ entry: Line, now: Instant, context: String) throws {
        let captured = entry.body["transaction"]?.stringValue
        if let captured, skipped.contains(captured) { return }
        let ours = captured.flatMap { transactions[$0] }
        let body = ours.map { JanusReplay.replacingTransaction(entry.body, with: $0) } ?? entry.body
        guard let index = owner(of: entry.path) else { return XCTFail("no adapter owns \(context)") }
        let request: CallSetupRequest
        if entry.method == "GET" {
            let position = try XCTUnwrap(open[index].firstIndex { $0.request.method == .get }, "no long poll outstanding at \(context)")
            request = open[index].remove(at: position)
            XCTAssertEqual(request.request.target, "/janus/\(setups[index].sessionID ?? 0)?maxev=10", context)
        } else {
            let position = try XCTUnwrap(matched[index].firstIndex { (try? JSONValue(parsing: $0.request.body))?["transaction"]?.stringValue == ours },
                                         "no POST awaits \(context)")
            request = matched[index].remove(at: position)
        }
        // Long polls alternate between the plain object and the ?maxev array form.
        var payload = body
        if entry.method == "GET" {
            wrapInArray.toggle()
            if wrapInArray { payload = [body] }
        }
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "Transfer-Encoding": "chunked"],
                                    body: Array(payload.serialized.utf8))
        setups[index].handle(.response(response, request: request.request), for: request.id, now: now)
    }

    static func replacingTransaction(_ body: JSONValue, with transaction: String) -> JSONValue {
        guard case .object(var members) = body else { return body }
        for index in members.indices where members[index].key == "transaction" {
            members[index].value = .string(transaction)
        }
        return .object(members)
    }
}
