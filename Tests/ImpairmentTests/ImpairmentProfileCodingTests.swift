import Foundation
import Impairment
import XCTest

final class ImpairmentProfileCodingTests: XCTestCase {
    private func decode(_ json: String) throws -> ImpairmentProfile {
        try JSONDecoder().decode(ImpairmentProfile.self, from: Data(json.utf8))
    }

    private func decodingError(_ json: String) -> String {
        do {
            _ = try decode(json)
            return "decoded"
        } catch {
            return "\(error)"
        }
    }

    func testSnakeCaseFieldsDecodeIntoTheProfile() throws {
        let profile = try decode("""
            {"loss_pct": 5, "burst_length": 3, "delay_ms": 40, "jitter_ms": 10,
             "jitter_distribution": "normal", "reorder": true, "duplicate_pct": 1,
             "rate_kbps": 300, "queue_packets": 50, "queue_bytes": 60000, "bucket_bytes": 3000}
            """)
        XCTAssertEqual(profile.lossPct, 5)
        XCTAssertEqual(profile.burstLength, 3)
        XCTAssertEqual(profile.delayMs, 40)
        XCTAssertEqual(profile.jitterMs, 10)
        XCTAssertEqual(profile.jitterDistribution, .normal)
        XCTAssertTrue(profile.reorder)
        XCTAssertEqual(profile.duplicatePct, 1)
        XCTAssertEqual(profile.rateKbps, 300)
        XCTAssertEqual(profile.queuePackets, 50)
        XCTAssertEqual(profile.queueBytes, 60_000)
        XCTAssertEqual(profile.bucketBytes, 3_000)
        let roundTrip = try JSONDecoder().decode(ImpairmentProfile.self, from: JSONEncoder().encode(profile))
        XCTAssertEqual(roundTrip, profile)
    }

    func testRawGilbertElliottDefaultsToSimpleGilbert() throws {
        let profile = try decode(#"{"gilbert_elliott": {"p": 0.01, "r": 0.25}}"#)
        XCTAssertEqual(profile.lossModel, .bursty(GilbertElliott(p: 0.01, r: 0.25, h: 0, k: 1)))
    }

    func testEmptyObjectIsCleanAndEncodesEmpty() throws {
        XCTAssertEqual(try decode("{}"), .clean)
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(ImpairmentProfile.clean), as: UTF8.self), "{}")
        XCTAssertEqual(ImpairmentProfile.clean.lossModel, .none)
    }

    func testUnknownFieldIsRejectedListingTheAllowedOnes() {
        let message = decodingError(#"{"loss": 5}"#)
        XCTAssertTrue(message.contains("unknown impairment field 'loss'"), message)
        XCTAssertTrue(message.contains("loss_pct, burst_length"), message)
    }

    func testOutOfRangeValueIsRejectedNamingTheField() {
        let message = decodingError(#"{"loss_pct": 120}"#)
        XCTAssertTrue(message.contains("loss_pct: must be within 0.0...100.0, got 120.0"), message)
        XCTAssertTrue(decodingError(#"{"rate_kbps": 0}"#).contains("rate_kbps"))
        XCTAssertTrue(decodingError(#"{"jitter_distribution": "pareto"}"#).contains("pareto"))
        XCTAssertTrue(decodingError(#"{"gilbert_elliott": {"p": 1.5, "r": 0.1}}"#).contains("gilbert_elliott.p"))
    }

    func testPresetsDecodeByNameAndUnknownPresetListsTheNames() throws {
        for name in ImpairmentProfile.presetNames {
            let preset = try XCTUnwrap(ImpairmentProfile.preset(named: name))
            XCTAssertEqual(try decode("\"\(name)\""), preset)
            XCTAssertNoThrow(try preset.validate(), name)
        }
        XCTAssertEqual(try decode(#""3g""#).rateKbps, 750)
        XCTAssertEqual(try decode(#""lossy-wifi""#).lossModel, .bursty(try GilbertElliott(lossRate: 0.05, meanBurstLength: 3)))
        let message = decodingError(#""4g""#)
        XCTAssertTrue(message.contains("unknown impairment preset '4g'; allowed: clean, 3g, lossy-wifi, congested"), message)
    }
}
