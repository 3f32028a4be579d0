import Media
import PeerCore
import RTCBase
@testable import Runtime
import XCTest

/// The sampled audio stream played out as a jitter buffer would, with known losses: every
/// missing 20 ms frame is concealed, a packet after its turn is dropped, and the marker
/// tones say which frames sound as sent.
final class SampledAudioDecoderTests: XCTestCase {
    private func packets(_ count: Int) throws -> [ReceivedFrame] {
        let source = AudioSource()
        let encoder = try OpusAudioEncoder()
        let offset: UInt32 = 0xFFFF_F000  // the sender's random offset: timestamps wrap during the stream
        return try (0..<count).map { index in
            let encoded = try encoder.encode(source.frame(index: index, captureTime: Instant(nanoseconds: Int64(index) * 20_000_000)))
            return ReceivedFrame(mid: "1", ssrc: 1, kind: .audio, codec: .opus, data: encoded.bytes, isKeyframe: true,
                                 rtpTimestamp: offset &+ encoded.rtpTimestamp, firstArrival: .zero, lastArrival: .zero)
        }
    }

    func testEveryFrameArrivingSoundsAsSent() throws {
        let decoder = SampledAudioDecoder()
        try packets(100).forEach(decoder.decode)
        XCTAssertEqual(decoder.results, SampledAudioDecoder.Results(decoded: 100, markersChecked: 99, markerHits: 99))
        XCTAssertEqual(decoder.results.markerHitPct, 100)
    }

    func testLostAndLatePacketsAreConcealedAndTheirFramesMiss() throws {
        var arriving = try packets(100)
        // Packets 10, 11 and 50 never come; 30 comes after 31, when its turn has passed.
        let late = arriving[30]
        arriving.swapAt(30, 31)
        arriving.removeAll { [10, 11, 50].contains(Int(($0.rtpTimestamp &- 0xFFFF_F000) / 960)) && $0 != late }
        let decoder = SampledAudioDecoder()
        arriving.forEach(decoder.decode)
        let results = decoder.results
        XCTAssertEqual(results.decoded, 96)
        XCTAssertEqual(results.concealed, 4, "10, 11, 50, and 30 at its turn")
        XCTAssertEqual(results.late, 1)
        XCTAssertEqual(results.markersChecked, 99, "every frame played after the first")
        // The 4 concealed frames miss; a frame right after a concealed one may carry its tail.
        XCTAssertLessThanOrEqual(results.markerHits, 95)
        XCTAssertGreaterThanOrEqual(results.markerHits, 92)
    }

    func testACorruptPacketIsCountedNotPlayed() throws {
        var arriving = try packets(5)
        arriving[2].data = []
        let decoder = SampledAudioDecoder()
        arriving.forEach(decoder.decode)
        XCTAssertEqual(decoder.results.decodeErrors, 1)
        XCTAssertEqual(decoder.results.decoded, 4)
    }
}
