import DTLS
import Foundation
import RTCBase
import SRTP
import WebRTCTestKit
import XCTest

final class DtlsEndpointTests: XCTestCase {
    func testHandshakeConnectsBothSidesWithGcmAndMirroredKeys() throws {
        var pair = try DtlsPair()
        XCTAssertNil(pair.client.pollTimeout(), "nothing runs before start")
        pair.client.start(now: pair.now)
        XCTAssertNotNil(pair.client.pollTimeout(), "the ClientHello has a retransmission timer")
        pair.pump()
        XCTAssertEqual(pair.client.state, .connected)
        XCTAssertEqual(pair.server.state, .connected)
        guard case .connected(let clientProfile, let clientKeys)? = pair.client.drainEvents().first,
            case .connected(let serverProfile, let serverKeys)? = pair.server.drainEvents().first
        else { return XCTFail("both sides should report connected") }
        // GCM is offered first and both sides support it.
        XCTAssertEqual(clientProfile, .aeadAes128Gcm)
        XCTAssertEqual(serverProfile, .aeadAes128Gcm)
        XCTAssertEqual(clientKeys.localMasterKey, serverKeys.remoteMasterKey)
        XCTAssertEqual(clientKeys.localMasterSalt, serverKeys.remoteMasterSalt)
        XCTAssertEqual(clientKeys.remoteMasterKey, serverKeys.localMasterKey)
        XCTAssertEqual(clientKeys.remoteMasterSalt, serverKeys.localMasterSalt)
        XCTAssertNotEqual(clientKeys.localMasterKey, clientKeys.remoteMasterKey)
        XCTAssertEqual(clientKeys.localMasterKey.count, 16)
        XCTAssertEqual(clientKeys.localMasterSalt.count, 12)
        XCTAssertEqual(pair.client.retransmissions, 0)
        XCTAssertGreaterThanOrEqual(pair.sent.count, 4)
        XCTAssertTrue(pair.sent.allSatisfy { $0.count <= DtlsEndpoint.mtu && (20...63).contains($0[0]) })
    }

    func testExportedKeysProtectSrtpOnOneSideAndUnprotectOnTheOther() throws {
        var pair = try DtlsPair()
        pair.handshake()
        guard case .connected(let profile, let clientKeys)? = pair.client.drainEvents().first,
            case .connected(_, let serverKeys)? = pair.server.drainEvents().first,
            let srtpProfile = SrtpProfile(name: profile.name)
        else { return XCTFail("no keys") }
        let clientSends = SrtpContext(
            profile: srtpProfile, masterKey: clientKeys.localMasterKey, masterSalt: clientKeys.localMasterSalt)
        let serverReceives = SrtpContext(
            profile: srtpProfile, masterKey: serverKeys.remoteMasterKey, masterSalt: serverKeys.remoteMasterSalt)
        let serverSends = SrtpContext(
            profile: srtpProfile, masterKey: serverKeys.localMasterKey, masterSalt: serverKeys.localMasterSalt)
        let clientReceives = SrtpContext(
            profile: srtpProfile, masterKey: clientKeys.remoteMasterKey, masterSalt: clientKeys.remoteMasterSalt)
        // V=2 P=0 X=0 CC=0, M=0 PT=111, seq=1, ts=160, SSRC=0xCAFEF00D, 20 bytes of payload
        let rtp: [UInt8] = [0x80, 111, 0, 1, 0, 0, 0, 160, 0xCA, 0xFE, 0xF0, 0x0D] + Array(repeating: 0x42, count: 20)
        XCTAssertEqual(try serverReceives.unprotectRtp(clientSends.protectRtp(rtp)), rtp)
        XCTAssertEqual(try clientReceives.unprotectRtp(serverSends.protectRtp(rtp)), rtp)
        // The client's own receive keys cannot read what it sent.
        XCTAssertThrowsError(try clientReceives.unprotectRtp(clientSends.protectRtp(rtp)))
    }

    func testFingerprintMismatchFailsWithAReasonOnBothSides() throws {
        let stranger = DtlsCertificate()
        var pair = try DtlsPair(clientExpects: stranger.fingerprint)
        pair.handshake()
        XCTAssertEqual(pair.client.state, .failed)
        guard case .failed(let reason)? = pair.client.drainEvents().first else { return XCTFail("client should fail") }
        XCTAssertTrue(reason.hasPrefix("fingerprint mismatch"), reason)
        XCTAssertTrue(reason.contains(DtlsPair.serverCertificate.fingerprint), reason)
        XCTAssertEqual(pair.server.state, .failed)
        guard case .failed(let alert)? = pair.server.drainEvents().first else { return XCTFail("server should fail") }
        XCTAssertTrue(alert.contains("alert"), alert)
        XCTAssertNil(pair.client.pollTimeout())
    }

    func testServerRejectsAClientWhoseFingerprintDiffers() throws {
        var pair = try DtlsPair(serverExpects: DtlsPair.serverCertificate.fingerprint)
        pair.handshake()
        XCTAssertEqual(pair.server.state, .failed)
        guard case .failed(let reason)? = pair.server.drainEvents().first else { return XCTFail("server should fail") }
        XCTAssertTrue(reason.hasPrefix("fingerprint mismatch"), reason)
        XCTAssertNotEqual(pair.client.state, .connected)
    }

    func testCloseNotifyFromOneSideClosesTheOther() throws {
        var pair = try DtlsPair()
        pair.handshake()
        _ = pair.client.drainEvents()
        _ = pair.server.drainEvents()
        pair.client.close()
        XCTAssertEqual(pair.client.state, .closed)
        XCTAssertEqual(pair.pump(), 1, "one close_notify datagram")
        XCTAssertEqual(pair.server.drainEvents(), [.closed])
        XCTAssertEqual(pair.server.state, .closed)
        XCTAssertEqual(pair.client.drainEvents(), [], "closing locally reports nothing")
    }

    /// Both sides free OpenSSL's record buffers when the handshake ends (16 KB a peer that
    /// a media-only peer never needs again) and get them back for what comes after:
    /// application data both ways, then close_notify, after which both free them again.
    func testRecordBuffersAreFreedAfterTheHandshakeAndComeBackForLaterRecords() throws {
        var pair = try DtlsPair()
        pair.handshake()
        _ = pair.client.drainEvents()
        _ = pair.server.drainEvents()
        XCTAssertEqual([pair.client.buffersReleased, pair.server.buffersReleased], [true, true])
        XCTAssertTrue(pair.client.send(applicationData: [1, 2, 3]))
        XCTAssertFalse(pair.client.buffersReleased)
        XCTAssertEqual(pair.pump(), 1)
        XCTAssertEqual(pair.server.drainEvents(), [.applicationData([1, 2, 3])])
        XCTAssertFalse(pair.server.buffersReleased)
        XCTAssertTrue(pair.server.send(applicationData: [4]))
        XCTAssertEqual(pair.pump(), 1)
        XCTAssertEqual(pair.client.drainEvents(), [.applicationData([4])])
        pair.server.close()
        XCTAssertTrue(pair.server.buffersReleased, "freed again once its close_notify is out")
        XCTAssertEqual(pair.pump(), 1, "one close_notify datagram")
        XCTAssertEqual(pair.client.drainEvents(), [.closed])
        XCTAssertTrue(pair.client.buffersReleased, "freed again once the remote's close_notify is read")
    }

    /// The timer set after creation (when ICE has measured the round trip) is the one the
    /// first flight starts with.
    func testARetransmitTimeoutSetBeforeStartTimesTheFirstFlight() throws {
        let pair = try DtlsPair()
        XCTAssertEqual(pair.client.retransmitTimeout, .seconds(1), "RFC 6347's 1 s unless told otherwise")
        pair.client.retransmitTimeout = .milliseconds(150)
        pair.client.start(now: pair.now)
        let deadline = try XCTUnwrap(pair.client.pollTimeout())
        XCTAssertEqual((deadline - pair.now).milliseconds, 150, accuracy: 15)
    }

    /// Real time: OpenSSL's timer reads the wall clock (see `DtlsEndpoint`). A 200 ms
    /// first timer keeps the "not due yet" check safe on a busy machine.
    func testDroppedFirstFlightIsRetransmittedAfterTheTimer() throws {
        var pair = try DtlsPair(retransmitTimeout: .milliseconds(200))
        pair.client.start(now: pair.now)
        let deadline = try XCTUnwrap(pair.client.pollTimeout())
        XCTAssertEqual((deadline - pair.now).milliseconds, 200, accuracy: 20)
        XCTAssertEqual(pair.pump(drop: { fromClient, _ in fromClient }), 1, "the ClientHello, dropped")
        pair.client.handleTimeout(now: pair.now + .milliseconds(1))
        XCTAssertEqual(pair.client.retransmissions, 0, "not due yet")
        XCTAssertNil(pair.client.pollTransmit())
        Thread.sleep(forTimeInterval: 0.21)
        pair.now = deadline
        pair.client.handleTimeout(now: pair.now)
        XCTAssertEqual(pair.client.retransmissions, 1)
        let next = try XCTUnwrap(pair.client.pollTimeout())
        XCTAssertEqual((next - pair.now).milliseconds, 400, accuracy: 40, "the timer doubles")
        pair.pump()
        XCTAssertEqual(pair.client.state, .connected)
        XCTAssertEqual(pair.server.state, .connected)
    }

    /// The server's final flight (ChangeCipherSpec, Finished) is lost: the client's timer
    /// resends its own flight, and the already connected server answers it again.
    func testLostFinalFlightIsRecoveredByTheClientTimer() throws {
        let pair = try DtlsPair(retransmitTimeout: .milliseconds(100))
        let now = pair.now
        pair.client.start(now: now)
        func deliver(from sender: DtlsEndpoint, to receiver: DtlsEndpoint?) {
            while let datagram = sender.pollTransmit() { receiver?.handle(datagram, now: now) }
        }
        deliver(from: pair.client, to: pair.server)  // ClientHello
        deliver(from: pair.server, to: pair.client)  // ServerHello .. ServerHelloDone
        deliver(from: pair.client, to: pair.server)  // Certificate .. Finished
        XCTAssertEqual(pair.server.state, .connected)
        deliver(from: pair.server, to: nil)  // ChangeCipherSpec, Finished: lost
        XCTAssertEqual(pair.client.state, .handshaking)
        let deadline = try XCTUnwrap(pair.client.pollTimeout())
        Thread.sleep(forTimeInterval: 0.11)
        pair.client.handleTimeout(now: deadline)
        XCTAssertEqual(pair.client.retransmissions, 1)
        deliver(from: pair.client, to: pair.server)
        deliver(from: pair.server, to: pair.client)
        XCTAssertEqual(pair.client.state, .connected)
        guard case .connected(_, let clientKeys)? = pair.client.drainEvents().first,
            case .connected(_, let serverKeys)? = pair.server.drainEvents().first
        else { return XCTFail("both sides should report connected once") }
        XCTAssertEqual(clientKeys.localMasterKey, serverKeys.remoteMasterKey)
    }

    func testGarbageDatagramsNeitherCrashNorStopTheHandshake() throws {
        var pair = try DtlsPair()
        var generator = SeededGenerator(seed: 8)
        func garbage() -> [UInt8] {
            let first = UInt8.random(in: 20...63, using: &generator)
            return [first] + (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        for _ in 0..<200 { pair.server.handle(garbage(), now: pair.now) }
        pair.server.handle([], now: pair.now)
        pair.client.start(now: pair.now)
        for _ in 0..<200 { pair.client.handle(garbage(), now: pair.now) }
        pair.pump()
        XCTAssertEqual(pair.client.state, .connected)
        XCTAssertEqual(pair.server.state, .connected)
        for _ in 0..<200 {
            pair.client.handle(garbage(), now: pair.now)
            pair.server.handle(garbage(), now: pair.now)
        }
        XCTAssertEqual(pair.client.state, .connected)
        XCTAssertEqual(pair.server.state, .connected)
    }

    /// Mutated handshake datagrams into fresh servers and into a connected pair. A server
    /// that fails on a malformed ClientHello is replaced; none may trap, and the connected
    /// pair still closes cleanly afterwards.
    func testFuzzedHandshakeDatagramsNeverCrashNorBreakAConnection() throws {
        var pair = try DtlsPair()
        pair.handshake()
        _ = pair.client.drainEvents()
        var fuzzer = Fuzzer(seeds: pair.sent, seed: 5764, maxLength: 1_400)
        let expected = DtlsCertificate.shared.fingerprint
        var server = try DtlsEndpoint(role: .server, remoteFingerprint: expected)
        var failures = 0
        fuzzer.run(iterations: 20_000) { input in
            server.handle(input, now: pair.now)
            pair.client.handle(input, now: pair.now)
            pair.server.handle(input, now: pair.now)
            while server.pollTransmit() != nil {}
            while pair.client.pollTransmit() != nil {}
            while pair.server.pollTransmit() != nil {}
            if server.state == .failed, let fresh = try? DtlsEndpoint(role: .server, remoteFingerprint: expected) {
                failures += 1
                server = fresh
            }
        }
        XCTAssertGreaterThan(failures, 0, "malformed ClientHellos are refused")
        XCTAssertLessThan(failures, 20_000)
        XCTAssertEqual(pair.client.state, .connected, "records from nowhere do not break a connection")
        XCTAssertEqual(pair.server.state, .connected)
        XCTAssertGreaterThan(pair.client.droppedRecords, 0)
        pair.server.close()
        pair.pump()
        XCTAssertEqual(pair.client.drainEvents(), [.closed])
    }

    /// OpenSSL 3.0 would stop working after one of these (see `DtlsRecordFilter`).
    func testShortForgedProtectedRecordsAreDroppedAndTheConnectionStillCloses() throws {
        for length in [1, 12, 23] {
            var pair = try DtlsPair()
            pair.handshake()
            _ = pair.client.drainEvents()
            // type=23 (application data) version=DTLS 1.2 epoch=1 sequence=9 length=...
            let forged: [UInt8] = [23, 0xfe, 0xfd, 0, 1, 0, 0, 0, 0, 0, 9, 0, UInt8(length)]
                + [UInt8](repeating: 0x5a, count: length)
            pair.client.handle(forged, now: pair.now)
            XCTAssertEqual(pair.client.droppedRecords, 1)
            pair.server.close()
            pair.pump()
            XCTAssertEqual(pair.client.drainEvents(), [.closed], "length \(length)")
        }
    }
}
