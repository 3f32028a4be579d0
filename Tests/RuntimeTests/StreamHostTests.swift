import EventLoop
import Net
import RTCBase
import Runtime
import Signaling
import WebRTCTestKit
import XCTest

/// `StreamHost` carrying HTTP signaling and single exchanges on a real loop against a scripted server on
/// loopback that answers with SRS's captured bytes (or closes, or is not there).
final class StreamHostTests: XCTestCase {
    /// A server that reads one request per connection, records it, and sends `reply`
    /// (nil: closes without a byte, as SRS does on a bad WHIP offer).
    private final class ScriptedServer {
        let listener: TCPListener
        var requests: [HTTPRequest] = []
        private var connections: [TCPConnection] = []

        init(loop: EventLoop, reply: @escaping (HTTPRequest) -> [UInt8]?) throws {
            listener = try TCPListener(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
            listener.onAccept = { [unowned self] connection in
                self.connections.append(connection)
                var parser = HTTPRequestParser()
                connection.onRead = { [unowned self] bytes in
                    parser.append(bytes)
                    guard let request = try? parser.next() else { return }
                    self.requests.append(request)
                    if let bytes = reply(request) { connection.write(bytes) }
                    connection.closeAfterWriting()
                }
            }
        }

        var api: Endpoint { Endpoint(scheme: .http, host: "127.0.0.1", port: listener.localAddress.port) }
    }

    private func run<Setup: CallSetup>(_ setup: Setup, on loop: EventLoop, until count: Int = 1) -> (StreamHost<HTTPSignaling<Setup>>, [CallSetupEvent]) {
        var events: [CallSetupEvent] = []
        let host = StreamHost(loop: loop, machine: HTTPSignaling(setup))
        host.onEvent = { events.append($0) }
        host.start()
        XCTAssertTrue(loop.run(until: { events.count >= count }, timeout: .seconds(5)), "events: \(events)")
        return (host, events)
    }

    func testSRSPublishGetsTheCapturedAnswerOverTCP() throws {
        let loop = try EventLoop()
        let response = try Fixtures.bytes("srs/publish.response.http")
        let server = try ScriptedServer(loop: loop) { _ in response }
        let setup = SRSCallSetup(api: server.api, streamURL: "webrtc://127.0.0.1/live/livestream", mode: .publish,
                                 offer: try Fixtures.text("aiortc/offer-sendonly-h264-opus.sdp"), eip: "127.0.0.1")
        let (host, events) = run(setup, on: loop)
        guard case .answer(let sdp)? = events.first else { return XCTFail("\(events)") }
        XCTAssertTrue(sdp.contains("m=video"))
        XCTAssertEqual(server.requests.map(\.target), ["/rtc/v1/publish/?eip=127.0.0.1"])
        XCTAssertEqual(host.machine.setup.sessionID?.contains(":"), true)
    }

    func testWhipOfferThatSRSRefusesByClosingIsReportedInItsWords() throws {
        let loop = try EventLoop()
        let server = try ScriptedServer(loop: loop) { _ in nil }
        let setup = WHIPCallSetup.srs(kind: .whip, api: server.api, app: "live", stream: "badsdp", offer: "v=0\r\nthis is not an sdp\r\n")
        let (_, events) = run(setup, on: loop)
        guard case .failed(let error)? = events.first else { return XCTFail("\(events)") }
        XCTAssertTrue(error.message.hasPrefix("server closed the connection without an answer"), error.message)
    }

    func testNobodyListeningFailsTheRequestInsteadOfHanging() throws {
        let loop = try EventLoop()
        let closed = try TCPListener(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0))
        let port = closed.localAddress.port
        closed.close()
        let setup = SRSCallSetup(api: Endpoint(scheme: .http, host: "127.0.0.1", port: port), streamURL: "webrtc://127.0.0.1/live/x",
                                 mode: .play, offer: "v=0\r\n")
        let (_, events) = run(setup, on: loop)
        guard case .failed(let error)? = events.first else { return XCTFail("\(events)") }
        XCTAssertTrue(error.message.hasPrefix("SRS did not answer: no connection: cannot connect to 127.0.0.1:\(port)"), error.message)
    }

    func testHttpsWithoutATLSContextFailsWithTheReason() throws {
        let loop = try EventLoop()
        let setup = SRSCallSetup(api: Endpoint(scheme: .https, host: "127.0.0.1", port: 1), streamURL: "webrtc://127.0.0.1/live/x",
                                 mode: .play, offer: "v=0\r\n")
        let (_, events) = run(setup, on: loop)
        guard case .failed(let error)? = events.first else { return XCTFail("\(events)") }
        XCTAssertTrue(error.message.hasSuffix("needs TLS, and no TLS context was given"), error.message)
    }
}
