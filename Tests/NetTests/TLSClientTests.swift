import Net
import RTCBase
import WebRTCTestKit
import XCTest

final class TLSClientTests: XCTestCase {
    /// Runs the handshake (and any queued data) until both sides are quiet.
    func pump(_ client: TLSClientConnection, _ server: TestTLSServer) -> [TLSEvent] {
        var events: [TLSEvent] = []
        var moved = true
        while moved {
            moved = false
            if let bytes = client.pollTransmit() { server.handle(bytes); moved = true }
            if let bytes = server.pollTransmit() { client.handle(bytes); moved = true }
            while let event = client.pollEvent() { events.append(event) }
        }
        return events
    }

    func testVerifiedHandshakeSendsSNIAndCarriesDataBothWays() throws {
        let certificate = TestCertificate()
        let context = try TLSClientContext(configuration: TLSConfiguration(additionalTrustedPEM: certificate.pem))
        let server = TestTLSServer(certificate: certificate)
        let client = try TLSClientConnection(serverName: "localhost", context: context)
        client.send(Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))  // held until connected
        XCTAssertEqual(pump(client, server), [.connected])
        XCTAssertEqual(server.serverName, "localhost")
        XCTAssertEqual(String(decoding: server.received, as: UTF8.self), "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        server.send(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))
        XCTAssertEqual(pump(client, server), [.data(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))])
        server.close()
        XCTAssertEqual(pump(client, server), [.closed])
        XCTAssertTrue(client.isClosed)
    }

    func testIPAddressIsVerifiedAgainstTheIPSubjectAltNameWithoutSNI() throws {
        let certificate = TestCertificate()
        let context = try TLSClientContext(configuration: TLSConfiguration(additionalTrustedPEM: certificate.pem))
        let server = TestTLSServer(certificate: certificate)
        let client = try TLSClientConnection(serverName: "127.0.0.1", context: context)
        XCTAssertEqual(pump(client, server), [.connected])
        XCTAssertNil(server.serverName, "no SNI for an IP literal (RFC 6066 section 3)")
    }

    func testUntrustedSelfSignedCertificateIsRejectedByDefault() throws {
        let server = TestTLSServer(certificate: TestCertificate())
        let client = try TLSClientConnection(serverName: "localhost", context: TLSClientContext())
        let events = pump(client, server)
        guard case .failed(let error) = events.last else { return XCTFail("expected failure, got \(events)") }
        XCTAssertTrue(error.message.contains("self-signed"), error.message)
        XCTAssertFalse(client.isConnected)
    }

    func testWrongHostNameIsRejectedEvenWhenTrusted() throws {
        let certificate = TestCertificate()
        let context = try TLSClientContext(configuration: TLSConfiguration(additionalTrustedPEM: certificate.pem))
        let client = try TLSClientConnection(serverName: "example.com", context: context)
        let events = pump(client, TestTLSServer(certificate: certificate))
        guard case .failed(let error) = events.last else { return XCTFail("expected failure, got \(events)") }
        XCTAssertTrue(error.message.contains("mismatch"), error.message)
    }

    func testVerificationCanBeTurnedOffForTestServers() throws {
        let context = try TLSClientContext(configuration: TLSConfiguration(verifyCertificates: false))
        let client = try TLSClientConnection(serverName: "example.com", context: context)
        XCTAssertEqual(pump(client, TestTLSServer(certificate: TestCertificate())), [.connected])
    }

    func testClientCloseSendsCloseNotify() throws {
        let context = try TLSClientContext(configuration: TLSConfiguration(verifyCertificates: false))
        let server = TestTLSServer(certificate: TestCertificate())
        let client = try TLSClientConnection(serverName: "localhost", context: context)
        _ = pump(client, server)
        client.close()
        _ = pump(client, server)
        XCTAssertTrue(server.sawCloseNotify)
    }

    func testGarbageAndEOFFailTheHandshakeWithoutCrashing() throws {
        let context = try TLSClientContext(configuration: TLSConfiguration(verifyCertificates: false))
        var fuzzer = Fuzzer(seeds: [[0x16, 0x03, 0x03, 0x00, 0x40] + Array(repeating: 2, count: 64)], seed: 6, maxLength: 200)
        var failures = 0
        fuzzer.run(iterations: 300) { input in
            guard let client = try? TLSClientConnection(serverName: "localhost", context: context) else { return }
            _ = client.pollTransmit()
            client.handle(input)
            client.handleEOF()
            while let event = client.pollEvent() {
                if case .failed = event { failures += 1 }
            }
        }
        XCTAssertEqual(failures, 300)
    }

    func testHTTPSRequestThroughTLSAndHTTPClientConnection() throws {
        let certificate = TestCertificate()
        let context = try TLSClientContext(configuration: TLSConfiguration(additionalTrustedPEM: certificate.pem))
        let server = TestTLSServer(certificate: certificate)
        let tls = try TLSClientConnection(serverName: "localhost", context: context)
        var http = HTTPClientConnection()
        let endpoint = try Endpoint(parsing: "https://localhost:8443/rtc/v1/whip/?app=live&stream=s")
        http.send(HTTPRequest(method: .post, endpoint: endpoint, headers: ["Content-Type": "application/sdp"], body: Array("v=0\r\n".utf8)),
                  now: .zero)
        if let bytes = http.pollTransmit() { tls.send(bytes) }
        XCTAssertEqual(pump(tls, server), [.connected])
        XCTAssertTrue(String(decoding: server.received, as: UTF8.self).hasPrefix("POST /rtc/v1/whip/?app=live&stream=s HTTP/1.1\r\nHost: localhost:8443\r\n"))
        server.send(Array("HTTP/1.1 201 Created\r\nLocation: /s/1\r\nContent-Length: 5\r\n\r\nv=0\r\n".utf8))
        for event in pump(tls, server) {
            if case .data(let bytes) = event { http.handle(bytes, now: .zero) }
        }
        guard case .response(let response, _) = http.pollEvent() else { return XCTFail("no response") }
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(try endpoint.resolving(response.headers["Location"] ?? "").description, "https://localhost:8443/s/1")
    }
}
