import Media
import RTCBase
import XCTest

/// Tones with per-frame markers survive Opus; silence reads as no marker.
final class AudioTests: XCTestCase {
    private func captureTime(_ index: Int) -> Instant { Instant(nanoseconds: Int64(index) * 20_000_000) }

    private func roundTrip(channels: Int, bitrate: Int, frames: Int = 100) throws -> [Int?] {
        let source = AudioSource(channels: channels)
        let encoder = try OpusAudioEncoder(channels: channels, bitrate: bitrate)
        let decoder = try OpusAudioDecoder(channels: channels)
        return try (0..<frames).map { index in
            let packet = try encoder.encode(source.frame(index: index, captureTime: captureTime(index)))
            XCTAssertEqual(packet.rtpTimestamp, UInt32(index * 960))
            XCTAssertEqual(packet.index, index)
            let pcm = try decoder.decode(packet.bytes)
            XCTAssertEqual(pcm.count, 960 * channels)
            return AudioMarkerReader.read(pcm, channels: channels)
        }
    }

    func testOpusMonoRoundTripReadsEveryMarker() throws {
        let markers = try roundTrip(channels: 1, bitrate: 32_000)
        XCTAssertEqual(markers, (0..<100).map { $0 % 16 })
    }

    func testOpusStereoRoundTripReadsEveryMarker() throws {
        let markers = try roundTrip(channels: 2, bitrate: 64_000)
        XCTAssertEqual(markers, (0..<100).map { $0 % 16 })
    }

    func testOpusAtLowBitrateStillReadsEveryMarker() throws {
        let markers = try roundTrip(channels: 1, bitrate: 12_000)
        XCTAssertEqual(markers, (0..<100).map { $0 % 16 })
    }

    /// After its warm-up the looped encoder replays one period: libopus runs for 4 of the
    /// 20 periods asked, and every decoded frame still holds its own marker.
    func testLoopedToneEncodesFourPeriodsAndEveryFrameKeepsItsMarker() throws {
        let encoder = try LoopedToneEncoder(channels: 1, bitrate: 32_000, warmupPeriods: 3)
        let decoder = try OpusAudioDecoder(channels: 1)
        let period = LoopedToneEncoder.period
        var packets: [[UInt8]] = []
        let markers = try (0..<20 * period).map { index in
            let packet = try encoder.packet(index: index, captureTime: captureTime(index))
            XCTAssertEqual(packet.rtpTimestamp, UInt32(index * 960))
            XCTAssertEqual(packet.index, index)
            packets.append(packet.bytes)
            return AudioMarkerReader.read(try decoder.decode(packet.bytes), channels: 1)
        }
        XCTAssertEqual(encoder.framesEncoded, 4 * period)
        XCTAssertEqual(markers, (0..<20 * period).map { $0 % period })
        XCTAssertEqual(Array(packets[(19 * period)...]), Array(packets[(3 * period)..<(4 * period)]), "the kept period")
        XCTAssertNotEqual(Array(packets[..<period]), Array(packets[(3 * period)..<(4 * period)]), "the first period came from a cold encoder")
    }

    func testLoopedSilenceDecodesToNoMarker() throws {
        let encoder = try LoopedToneEncoder(silent: true, warmupPeriods: 1)
        let decoder = try OpusAudioDecoder()
        for index in 0..<(4 * LoopedToneEncoder.period) {
            let pcm = try decoder.decode(try encoder.packet(index: index, captureTime: captureTime(index)).bytes)
            XCTAssertNil(AudioMarkerReader.read(pcm, channels: 1), "frame \(index)")
        }
        XCTAssertEqual(encoder.framesEncoded, 2 * LoopedToneEncoder.period)
    }

    func testRawFramesCarryTheirMarkerAndStartAtPhaseZero() {
        let source = AudioSource(channels: 2)
        for index in 0..<32 {
            let frame = source.frame(index: index, captureTime: captureTime(index))
            XCTAssertEqual(frame.samples.count, 1920)
            XCTAssertEqual(frame.samples[0], 0, "whole cycles per frame: no step between frames")
            XCTAssertEqual(frame.samples[2 * 480], frame.samples[2 * 480 + 1], "both channels alike")
            XCTAssertEqual(AudioMarkerReader.read(frame.samples, channels: 2), index % 16)
        }
    }

    func testMutedFramesAreSilentAndCarryNoMarker() throws {
        let frame = AudioSource().frame(index: 3, captureTime: .zero, muted: true)
        XCTAssertEqual(frame.samples, [Int16](repeating: 0, count: 960))
        XCTAssertNil(AudioMarkerReader.read(frame.samples, channels: 1))
        let encoder = try OpusAudioEncoder()
        let decoder = try OpusAudioDecoder()
        let packet = try encoder.encode(frame)
        XCTAssertNil(AudioMarkerReader.read(try decoder.decode(packet.bytes), channels: 1))
    }

    func testLostPacketIsConcealedWithTwentyMilliseconds() throws {
        let decoder = try OpusAudioDecoder(channels: 2)
        XCTAssertEqual(try decoder.decodeLost().count, 1920)
    }

    func testTwoTonesAtOnceReadAsNoMarker() {
        let source = AudioSource()
        let a = source.frame(index: 1, captureTime: .zero).samples
        let b = source.frame(index: 9, captureTime: .zero).samples
        let mixed = zip(a, b).map { Int16((Int($0) + Int($1)) / 2) }
        XCTAssertNil(AudioMarkerReader.read(mixed, channels: 1))
    }

    func testEncoderRejectsFramesOfTheWrongShape() throws {
        let encoder = try OpusAudioEncoder(channels: 1)
        let stereo = AudioSource(channels: 2).frame(index: 0, captureTime: .zero)
        XCTAssertThrowsError(try encoder.encode(stereo))
        XCTAssertThrowsError(try OpusAudioEncoder(channels: 3))
    }
}
