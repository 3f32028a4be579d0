import RTCBase
import SRTP
import WebRTCTestKit
import XCTest

/// 100,000 random and mutated inputs into unprotect: each must throw or succeed, never
/// trap.
final class SrtpFuzzTests: XCTestCase {
    func testUnprotectSurvivesHundredThousandFuzzedInputs() throws {
        var generator = SeededGenerator(seed: 3711)
        var outcomes = (accepted: 0, rejected: 0)
        for profile in [SrtpProfile.aesCm128HmacSha1_80, .aeadAes128Gcm] {
            let key = [UInt8](repeating: 1, count: profile.masterKeyLength)
            let salt = [UInt8](repeating: 2, count: profile.masterSaltLength)
            let sender = SrtpContext(profile: profile, masterKey: key, masterSalt: salt)
            let receiver = SrtpContext(profile: profile, masterKey: key, masterSalt: salt)
            var seeds: [[UInt8]] = []
            for sequence in 0..<20 {
                let rtp = SrtpTestPackets.rtp(
                    sequence: UInt16(sequence), ssrc: 5, payloadLength: sequence * 20, csrcCount: sequence % 3,
                    extensionWords: sequence % 2, using: &generator)
                seeds.append(try sender.protectRtp(rtp))
                seeds.append(try sender.protectRtcp(SrtpTestPackets.rtcp(ssrc: 5, blocks: sequence % 4, using: &generator)))
            }
            var fuzzer = Fuzzer(seeds: seeds, seed: UInt64(profile.rtpTagLength), maxLength: 1500)
            var round = 0
            fuzzer.run(iterations: 50_000) { input in
                round += 1
                do {
                    _ = round % 2 == 0 ? try receiver.unprotectRtp(input) : try receiver.unprotectRtcp(input)
                    outcomes.accepted += 1
                } catch {
                    outcomes.rejected += 1
                }
            }
        }
        XCTAssertEqual(outcomes.accepted + outcomes.rejected, 100_000)
        // Mutations break the tag; only unmutated-by-chance inputs can pass.
        XCTAssertGreaterThan(outcomes.rejected, 99_000)
    }
}
