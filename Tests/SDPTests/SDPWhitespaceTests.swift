import RTCBase
import SDP
import WebRTCTestKit
import XCTest

/// Real-world whitespace in rtcp-fb, fmtp, rtpmap, extmap, ssrc and candidate lines is read
/// the way browsers read it (SDPSyntax.foldingWhitespace). Pion 3.1.56 writes
/// `a=rtcp-fb:102 nack ` (trailing space): read strictly, NACK was not negotiated.
final class SDPWhitespaceTests: XCTestCase {
    static let pionAnswer = "pion/echo-answer-h264.sdp"

    /// Pion's answer as captured has trailing spaces; trimming every line must not change
    /// what it negotiates: NACK, PLI and transport-cc for H.264, transport-cc for Opus.
    func testPionTrailingSpaceAnswerNegotiatesNackPliAndTransportCCAsTheTrimmedOne() throws {
        let captured = try Fixtures.text(Self.pionAnswer)
        XCTAssertTrue(captured.contains("a=rtcp-fb:102 nack \r\n"), "the fixture keeps Pion's trailing space")
        let trimmed = captured.split(separator: "\r\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\r\n") + "\r\n"
        XCTAssertFalse(trimmed.contains(" \r\n"))
        let asCaptured = try SessionDescription.parse(captured)
        let asTrimmed = try SessionDescription.parse(trimmed)
        XCTAssertEqual(asCaptured.media.map(\.codecs), asTrimmed.media.map(\.codecs))

        let local: [CodecCapability] = [.h264(), .opus()]
        let video = CodecNegotiation.answer(offered: asCaptured.media[1].codecs, local: local)
        XCTAssertEqual(video.first?.name, "H264")
        XCTAssertTrue(Set<FeedbackMechanism>([.nack, .pli, .transportCC]).isSubset(of: video.first?.feedback ?? []),
                      "\(video.first?.feedback ?? [])")
        XCTAssertEqual(video, CodecNegotiation.answer(offered: asTrimmed.media[1].codecs, local: local))
        let audio = CodecNegotiation.answer(offered: asCaptured.media[0].codecs, local: local)
        XCTAssertEqual(audio.first?.feedback, CodecNegotiation.answer(offered: asTrimmed.media[0].codecs, local: local).first?.feedback)
        XCTAssertEqual(asCaptured.media[0].codecs.first?.feedback, [.transportCC])
    }

    /// Each tolerant attribute with a trailing space, a tab and a doubled space reads as
    /// its canonical spelling does, and keeps its original text for serialization.
    func testTrailingSpacesTabsAndRepeatedSpacesReadAsTheCanonicalLine() throws {
        let canonical = [
            "rtcp-fb:102 nack", "rtcp-fb:102 nack pli", "rtcp-fb:* transport-cc",
            "fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f",
            "rtpmap:111 opus/48000/2",
            "extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01",
            "ssrc:2527219234 msid:echo echo-audio/opus",
            "candidate:2878742611 1 udp 2130706431 127.0.0.1 50329 typ host",
        ]
        for line in canonical {
            let expected = try SDPAttribute(parsing: Substring(line))
            let colon = line.firstIndex(of: ":")!
            let value = line[line.index(after: colon)...]
            let variants = [
                line + " ", line + "\t", line + " \t ",
                String(line[...colon]) + " " + value,
                String(line[...colon]) + value.replacingOccurrences(of: " ", with: "  "),
                String(line[...colon]) + value.replacingOccurrences(of: " ", with: "\t"),
            ]
            for variant in variants {
                XCTAssertEqual(try SDPAttribute(parsing: Substring(variant)), expected, "\(variant.debugDescription)")
                let text = "v=0\r\no=- 1 2 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 102\r\na=\(variant)\r\n"
                XCTAssertEqual(try SessionDescription.parse(text).serialize(), text, "\(variant.debugDescription) serializes as read")
            }
        }
    }

    /// Feedback whose mechanism is all whitespace is still no mechanism, and attributes
    /// outside the tolerant set stay strict (a stray space in a token is an error).
    func testWhitespaceOnlyValuesAndOtherAttributesStayRejected() {
        XCTAssertThrowsError(try SDPAttribute(parsing: "rtcp-fb:102  \t"))
        XCTAssertThrowsError(try SDPAttribute(parsing: "rtpmap: \t "))
        XCTAssertThrowsError(try SDPAttribute(parsing: "mid:0 "))
        XCTAssertThrowsError(try SDPAttribute(parsing: "ice-ufrag:abc def"))
    }

    /// A fuzz over whitespace: 1,000 copies of Pion's answer with random runs of spaces and
    /// tabs inserted between the fields of, and after, its tolerant lines. Each parses to
    /// the same codecs, extmaps, SSRCs and candidates as the capture, so no negotiated
    /// feature turns off because of formatting.
    func testRandomWhitespaceInTolerantLinesNeverChangesTheModel() throws {
        let captured = try Fixtures.text(Self.pionAnswer)
        let reference = try SessionDescription.parse(captured)
        let lines = captured.split(separator: "\r\n").map(String.init)
        var generator = SeededGenerator(seed: 22)
        let tolerant = ["a=rtcp-fb:", "a=fmtp:", "a=rtpmap:", "a=extmap:", "a=ssrc:", "a=candidate:"]
        func whitespace() -> String {
            String((0..<Int.random(in: 1...3, using: &generator)).map { _ in Bool.random(using: &generator) ? " " : "\t" })
        }
        var changedLines = 0
        for _ in 0..<1_000 {
            let mutated = lines.map { line -> String in
                guard let prefix = tolerant.first(where: line.hasPrefix), Int.random(in: 0..<3, using: &generator) == 0 else { return line }
                changedLines += 1
                let fields = line.dropFirst(prefix.count).split(separator: " ")
                var joined = String(fields[0])
                for field in fields.dropFirst() { joined += (Bool.random(using: &generator) ? whitespace() : " ") + field }
                return prefix + (Bool.random(using: &generator) ? whitespace() : "") + joined + (Bool.random(using: &generator) ? whitespace() : "")
            }
            let sdp = try SessionDescription.parse(mutated.joined(separator: "\r\n") + "\r\n")
            XCTAssertEqual(sdp.media.map(\.codecs), reference.media.map(\.codecs))
            XCTAssertEqual(sdp.media.map(\.extmaps), reference.media.map(\.extmaps))
            XCTAssertEqual(sdp.media.map(\.ssrcs), reference.media.map(\.ssrcs))
            XCTAssertEqual(sdp.media.map(\.candidates), reference.media.map(\.candidates))
        }
        XCTAssertGreaterThan(changedLines, 10_000)
    }
}
