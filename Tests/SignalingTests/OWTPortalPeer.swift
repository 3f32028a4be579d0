import Net
import RTCBase
import Signaling
import XCTest

/// The portal's end of an `OWTPortalClient`'s connections, for tests without a server:
/// it "connects" what the client asks for, answers the WebSocket upgrade, reads the
/// client's Engine.IO packets as text and sends the portal's as text frames.
struct OWTPortalPeer {
    static let start = Instant(nanoseconds: 5_000_000_000)
    /// `{"tokenId":"tok1","host":"127.0.0.1:8080","secure":false,"signature":"c2ln"}`.
    static let token = "eyJ0b2tlbklkIjoidG9rMSIsImhvc3QiOiIxMjcuMC4wLjE6ODA4MCIsInNlY3VyZSI6ZmFsc2UsInNpZ25hdHVyZSI6ImMybG4ifQ=="
    /// `{"participantId":"p1","ticketId":"t1","notBefore":1700000000000,"notAfter":1700000300000,"signature":"s"}`: 300 s.
    static let ticket = "eyJwYXJ0aWNpcGFudElkIjoicDEiLCJ0aWNrZXRJZCI6InQxIiwibm90QmVmb3JlIjoxNzAwMDAwMDAwMDAwLCJub3RBZnRlciI6MTcwMDAwMDMwMDAwMCwic2lnbmF0dXJlIjoicyJ9"

    var socket = WebSocketConnection(role: .server)
    private var parser = HTTPRequestParser()
    /// The current connection, where it goes, and its upgrade request once read.
    var streamID: StreamID?
    var destination: StreamDestination?
    var upgrade: HTTPRequest?
    /// Connections the client closed or aborted.
    var closed: [StreamID] = []
    /// Every connection the client asked for, in order.
    var connects: [StreamDestination] = []
    /// Engine.IO packets from the client not yet taken.
    private var texts: [String] = []

    /// Carries out the client's outputs until it has none.
    mutating func pump(_ client: inout OWTPortalClient, now: Instant = start) throws {
        while let output = client.pollTransmit() {
            switch output {
            case .connect(let id, let destination):
                streamID = id
                self.destination = destination
                connects.append(destination)
                socket = WebSocketConnection(role: .server)
                parser = HTTPRequestParser()
                upgrade = nil
                client.handle(.connected(id), now: now)
            case .write(let id, let bytes):
                XCTAssertEqual(id, streamID, "write on a connection that is not the current one")
                if upgrade == nil {
                    parser.append(bytes)
                    guard let request = try parser.next() else { continue }
                    upgrade = request
                    client.handle(.data(id, WebSocketHandshake.serverResponse(to: request).response.serialized()), now: now)
                    socket.handle(parser.takeRemainingBytes(), now: now)
                } else {
                    socket.handle(bytes, now: now)
                }
            case .close(let id), .abort(let id):
                closed.append(id)
            }
            while let event = socket.pollEvent() {
                if case .text(let text) = event { texts.append(text) }
            }
        }
    }

    /// The client's Engine.IO packets since the last call.
    mutating func take(_ client: inout OWTPortalClient, now: Instant = start) throws -> [String] {
        try pump(&client, now: now)
        defer { texts = [] }
        return texts
    }

    /// Sends Engine.IO packets as the portal, then carries out what the client does.
    mutating func send(_ packets: String..., to client: inout OWTPortalClient, now: Instant = start) throws {
        for packet in packets {
            socket.send(text: packet)
            while let bytes = socket.pollTransmit() { client.handle(.data(try XCTUnwrap(streamID), bytes), now: now) }
        }
        try pump(&client, now: now)
    }

    /// Opens the Engine.IO v3 session as a 2.x portal does: open packet, then `40`.
    mutating func openV3(_ client: inout OWTPortalClient, now: Instant = start) throws {
        try pump(&client, now: now)
        try send(#"0{"sid":"eio-1","upgrades":[],"pingInterval":25000,"pingTimeout":60000}"#, "40", to: &client, now: now)
    }

    /// A `login` answer for room `r1` with one forward stream, the mixed stream and two participants.
    static let roomInfo = #"{"id":"p1","user":"alice","role":"presenter","permission":{},"#
        + #""room":{"id":"r1","views":["common"],"streams":["#
        + #"{"id":"r1-common","type":"mixed","media":{"tracks":[{"type":"audio","format":{"codec":"opus"}},"#
        + #"{"type":"video","format":{"codec":"vp8"},"parameters":{"resolution":{"width":1280,"height":720}}}]},"#
        + #""info":{"label":"common","layout":[]}},"#
        + #"{"id":"s7","type":"forward","media":{"tracks":[{"type":"video","source":"camera","#
        + #""parameters":{"resolution":{"width":640,"height":360}}}]},"info":{"owner":"p2","attributes":{}}}],"#
        + #""participants":[{"id":"p1","role":"presenter","user":"alice"},{"id":"p2","role":"presenter","user":"bob"}]},"#
        + #""reconnectionTicket":"\#(ticket)"}"#

    /// Logs the client in (Engine.IO v3) and returns its events so far.
    mutating func logIn(_ client: inout OWTPortalClient, now: Instant = start) throws -> [OWTPortalEvent] {
        try openV3(&client, now: now)
        let login = try take(&client, now: now)
        XCTAssertEqual(login.count, 1, "\(login)")
        XCTAssert(login.first?.hasPrefix(#"420["login","#) ?? false, "\(login)")
        try send(#"430["ok",\#(OWTPortalPeer.roomInfo)]"#, to: &client, now: now)
        return Self.events(&client)
    }

    static func events(_ client: inout OWTPortalClient) -> [OWTPortalEvent] {
        var events: [OWTPortalEvent] = []
        while let event = client.pollEvent() { events.append(event) }
        return events
    }

    static func client(engineIO: SocketIOClientSession.EngineIOVersion = .v3, reloginAttempts: Int = 3) -> OWTPortalClient {
        OWTPortalClient(configuration: .init(credentials: .token(token), engineIO: engineIO, reloginAttempts: reloginAttempts))
    }

    /// A two-section offer (audio mid 0, video mid 1) as rtcswarm's peer makes one.
    static let offer = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0 1\r\n"
        + "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 0.0.0.0\r\na=mid:0\r\na=sendonly\r\na=rtpmap:111 opus/48000/2\r\n"
        + "m=video 9 UDP/TLS/RTP/SAVPF 96\r\nc=IN IP4 0.0.0.0\r\na=mid:1\r\na=sendonly\r\na=rtpmap:96 VP8/90000\r\n"
}
