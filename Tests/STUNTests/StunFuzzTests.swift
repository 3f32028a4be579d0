import RTCBase
import STUN
import WebRTCTestKit
import XCTest

final class StunFuzzTests: XCTestCase {
    /// Attributes the encoder writes itself rather than copying.
    static func isComputed(_ attribute: StunAttribute) -> Bool {
        switch attribute {
        case .messageIntegrity, .fingerprint: false
        default: true
        }
    }

    func testDecoderSurvivesHundredThousandMutatedInputs() {
        let id = TransactionID(high: 1, low: 2)
        let turn = StunMessage(method: .allocate, messageClass: .successResponse, transactionID: id, attributes: [
            .xorRelayedAddress(SocketAddress("127.0.0.1:49160")!), .xorMappedAddress(SocketAddress("[::1]:5")!),
            .lifetime(600), .errorCode(.staleNonce), .nonce("abc"), .realm("r"), .data([1, 2, 3]),
            .unknownAttributes([1, 2, 3]), .channelNumber(0x4000), .requestedTransport(17),
        ]).encode(integrityKey: [1], fingerprint: true)
        let seeds = [Rfc5769VectorTests.request, Rfc5769VectorTests.ipv4Response, Rfc5769VectorTests.ipv6Response,
                     Rfc5769VectorTests.longTermRequest, turn, ChannelData(channel: 0x4001, payload: [9, 9]).encode()]
        var fuzzer = Fuzzer(seeds: seeds, seed: 0x57_0A, maxLength: 256)
        var decoded = 0
        var unstable = 0
        fuzzer.run(iterations: 100_000) { input in
            if let message = try? StunMessage.decode(input) {
                decoded += 1
                _ = message.verifyIntegrity(key: [1])
                // Whatever decodes must re-encode (integrity and fingerprint recomputed) to
                // something that decodes the same.
                let again = try? StunMessage.decode(message.encode(integrityKey: [1], fingerprint: true))
                if again?.attributes.filter(Self.isComputed) != message.attributes.filter(Self.isComputed)
                    || again?.transactionID != message.transactionID || again?.method != message.method {
                    unstable += 1
                }
            }
            _ = try? ChannelData.decode(input)
        }
        XCTAssertEqual(unstable, 0)
        // Single-bit mutations of headers and padding still decode; most do not.
        XCTAssertGreaterThan(decoded, 100)
    }
}
