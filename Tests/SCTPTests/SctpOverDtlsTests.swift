import DTLS
import RTCBase
import SCTP
import XCTest

/// SCTP carried as RFC 8261 says: each SCTP packet is one DTLS application data record,
/// here over two real (OpenSSL) DTLS endpoints wired in memory.
final class SctpOverDtlsTests: XCTestCase {
    func testChannelAndMessagesRunOverDtlsRecords() throws {
        let serverCertificate = DtlsCertificate()
        let dtlsClient = try DtlsEndpoint(role: .client, remoteFingerprint: serverCertificate.fingerprint)
        let dtlsServer = try DtlsEndpoint(role: .server, certificate: serverCertificate,
                                          remoteFingerprint: DtlsCertificate.shared.fingerprint)
        var client = SctpAssociation(configuration: .init(role: .client), seed: 11)
        var server = SctpAssociation(configuration: .init(role: .server), seed: 12)
        var clientEvents: [SctpEvent] = []
        var serverEvents: [SctpEvent] = []
        var records = 0
        let now = Instant.zero
        func pump() {
            var moved = true
            while moved {
                moved = false
                while let packet = client.pollTransmit() { XCTAssertTrue(dtlsClient.send(applicationData: packet)); moved = true }
                while let packet = server.pollTransmit() { XCTAssertTrue(dtlsServer.send(applicationData: packet)); moved = true }
                while let datagram = dtlsClient.pollTransmit() {
                    XCTAssertLessThanOrEqual(datagram.count, DtlsEndpoint.mtu)
                    dtlsServer.handle(datagram, now: now)
                    moved = true
                }
                while let datagram = dtlsServer.pollTransmit() { dtlsClient.handle(datagram, now: now); moved = true }
                while let event = dtlsClient.pollEvent() {
                    if case .applicationData(let packet) = event { client.handle(packet, now: now); records += 1 }
                }
                while let event = dtlsServer.pollEvent() {
                    if case .applicationData(let packet) = event { server.handle(packet, now: now); records += 1 }
                }
                while let event = client.pollEvent() { clientEvents.append(event) }
                while let event = server.pollEvent() { serverEvents.append(event) }
            }
        }
        XCTAssertFalse(dtlsClient.send(applicationData: [1]), "nothing goes before the handshake")
        dtlsClient.start(now: now)
        pump()
        XCTAssertEqual(dtlsClient.state, .connected)
        client.connect(now: now)
        let id = try client.openChannel(DataChannelOptions(label: "over-dtls"), now: now)
        pump()
        XCTAssertEqual(clientEvents.first, .associationUp)
        XCTAssertEqual(serverEvents.first, .associationUp)
        let big = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        try client.send(big, on: id, now: now)
        try client.send(Array("ping".utf8), isString: true, on: id, now: now)
        pump()
        let received = serverEvents.compactMap { if case .message(let message) = $0 { message } else { nil } }
        XCTAssertEqual(received.map(\.bytes.count), [65_536, 4])
        XCTAssertTrue(received.first?.bytes == big, "64 KB byte for byte through DTLS records")
        XCTAssertEqual(received.last, DataChannelMessage(channel: id, bytes: Array("ping".utf8), isString: true))
        XCTAssertGreaterThan(records, 60, "a 64 KB message is 60 fragments of at most 1102 bytes")
    }
}
