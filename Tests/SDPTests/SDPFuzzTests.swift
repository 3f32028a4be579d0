import RTCBase
import SDP
import WebRTCTestKit
import XCTest

final class SDPFuzzTests: XCTestCase {
    /// 100,000 inputs: 50,000 mutated captures and 50,000 random byte strings. The parser
    /// never traps, and what it accepts (checked on every fourth, to keep the run short)
    /// serializes to text that parses back to the same model. (Random inputs are kept short: past the first bytes, which must be
    /// `v=0`, their length adds generation time and no coverage.)
    func testHundredThousandMutatedAndRandomInputsNeverTrap() throws {
        let seeds = try SDPFixtureCorpus.all().map { Array($0.text.utf8) }
        var mutator = Fuzzer(seeds: seeds, seed: 0x5d9, maxLength: 2048)
        var randomizer = Fuzzer(seeds: [], seed: 0x5da, maxLength: 64)
        var accepted = 0
        var rejected = 0
        func check(_ input: [UInt8]) {
            guard let sdp = try? SessionDescription.parse(bytes: input) else {
                rejected += 1
                return
            }
            accepted += 1
            if accepted % 4 == 0 { XCTAssertEqual(try? SessionDescription.parse(sdp.serialize()), sdp) }
            _ = sdp.media.map { ($0.codecs, $0.ssrcs, $0.candidates, $0.direction) }
        }
        for _ in 0..<50_000 { check(mutator.mutated()) }
        randomizer.run(iterations: 50_000) { check($0) }
        XCTAssertEqual(accepted + rejected, 100_000)
        XCTAssertGreaterThan(accepted, 1_000)
        XCTAssertGreaterThan(rejected, 50_000)
    }

    func testRandomTextInsideAttributeValuesNeverTraps() {
        var generator = SeededGenerator(seed: 11)
        let names = ["rtpmap", "fmtp", "rtcp-fb", "candidate", "extmap", "ssrc", "ssrc-group", "group", "msid",
                     "msid-semantic", "fingerprint", "setup", "ice-options", "mid"]
        let alphabet = Array("0123456789 /:;=*-abcxyzH.\t")
        var accepted = 0
        for _ in 0..<20_000 {
            let name = names[Int.random(in: 0..<names.count, using: &generator)]
            let value = String((0..<Int.random(in: 0...24, using: &generator)).map { _ in
                alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
            })
            let text = "v=0\r\no=- 1 2 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=\(name):\(value)\r\n"
            if let sdp = try? SessionDescription.parse(text) {
                accepted += 1
                XCTAssertEqual(sdp.serialize(), text)
                _ = (sdp.media[0].codecs, sdp.media[0].ssrcs, sdp.media[0].codecs.map(\.profileLevelID))
            }
        }
        XCTAssertGreaterThan(accepted, 1_000)
    }
}
