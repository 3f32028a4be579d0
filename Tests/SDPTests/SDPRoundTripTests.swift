import RTCBase
import SDP
import XCTest

final class SDPRoundTripTests: XCTestCase {
    func testEveryCapturedSDPParsesAndSerializesByteForByte() throws {
        let corpus = try SDPFixtureCorpus.all()
        // 13 .sdp files (one Pion answer), 5 SRS requests, 5 SRS responses, 2+2+4 Janus JSEPs.
        XCTAssertEqual(corpus.count, 31)
        for (name, text) in corpus {
            do {
                let parsed = try SessionDescription.parse(text)
                XCTAssertEqual(parsed.serialize(), text, name)
                XCTAssertEqual(parsed.lineEnding, .crlf, name)
                XCTAssertEqual(try SessionDescription.parse(parsed.serialize()), parsed, name)
            } catch {
                XCTFail("\(name): \(error)")
            }
        }
    }

    func testEveryCapturedSDPHasTypedMediaSections() throws {
        for (name, text) in try SDPFixtureCorpus.all() where !name.hasPrefix("srs/error-no-msid-ssrc.response") {
            let sdp = try SessionDescription.parse(text)
            XCTAssertEqual(sdp.media.count, 2, name)
            XCTAssertEqual(sdp.bundleMids, ["0", "1"], name)
            for section in sdp.media {
                XCTAssertTrue(section.rtcpMux, name)
                XCTAssertNotNil(section.mid, name)
                XCTAssertFalse(section.codecs.isEmpty, name)
                XCTAssertNotNil(sdp.iceCredentials(of: section), name)
                XCTAssertEqual(sdp.fingerprints(of: section).first?.digest?.count, 32, name)
            }
        }
    }

    func testLFOnlyInputRoundTripsWithLF() throws {
        let text = "v=0\no=- 1 2 IN IP4 127.0.0.1\ns=-\nt=0 0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=rtpmap:111 opus/48000/2\n"
        let sdp = try SessionDescription.parse(text)
        XCTAssertEqual(sdp.lineEnding, .lf)
        XCTAssertEqual(sdp.serialize(), text)
        XCTAssertEqual(sdp.media.first?.codecs.first?.name, "opus")
    }
}
