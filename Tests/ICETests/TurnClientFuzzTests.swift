import ICE
import RTCBase
import STUN
import WebRTCTestKit
import XCTest

final class TurnClientFuzzTests: XCTestCase {
    func testClientSurvivesHundredThousandMutatedServerDatagrams() {
        let server = SocketAddress("127.0.0.1:3478")!
        var client = TurnClient(server: server, local: SocketAddress("127.0.0.1:5000")!, username: "test", password: "test")
        client.allocate(now: .zero)
        let request = (try? StunMessage.decode(client.pollTransmit()?.payload ?? [])) ?? StunMessage(
            method: .allocate, messageClass: .request, transactionID: TransactionID(high: 0, low: 0))
        let peer = SocketAddress("127.0.0.1:7000")!
        let seeds = [
            request.response(.errorResponse, attributes: [.errorCode(.unauthenticated), .realm("test"), .nonce("n")]).encode(fingerprint: true),
            request.response(attributes: [.xorRelayedAddress(peer), .lifetime(600)]).encode(integrityKey: [1], fingerprint: true),
            StunMessage(method: .data, messageClass: .indication, transactionID: TransactionID(high: 1, low: 1),
                        attributes: [.xorPeerAddress(peer), .data([1, 2, 3])]).encode(fingerprint: true),
            ChannelData(channel: 0x4000, payload: [1, 2, 3]).encode(),
        ]
        var fuzzer = Fuzzer(seeds: seeds, seed: 0x7E, maxLength: 160)
        var now = Instant.zero
        var relayed = 0
        fuzzer.run(iterations: 100_000) { input in
            now += .milliseconds(1)
            if client.handle(input, from: server, now: now) != nil { relayed += 1 }
            if let due = client.pollTimeout(), due <= now { client.handleTimeout(now: now) }
            while client.pollTransmit() != nil {}
            while client.pollEvent() != nil {}
        }
        // Mutated Data indications still carry a peer and data now and then.
        XCTAssertGreaterThan(relayed, 100)
    }
}
