import EventLoop
import Net
import RTCBase
import Runtime
import SDP
import Signaling
import WebRTCTestKit
import XCTest

/// One SRS signaling exchange driven on a loop, for the tests that talk to SRS's API
/// directly: an offer from rtcswarm's own SDP builder, and the adapter run to its answer
/// or failure.
struct SRSNegotiation {
    let api: Endpoint
    let loop: EventLoop

    init(url: String) throws {
        api = try Endpoint(parsing: url)
        loop = try EventLoop()
    }

    /// The shared SRS for `test`, recorded as the interop cell `role` with SRS's version.
    init(for test: XCTestCase, role: String) throws {
        let cell = InteropRecorder.cell(test, target: "SRS", role: role, codec: "signaling")
        try self.init(url: SRSUnderTest.sharedURL())
        cell.version = ServerVersionProbe.srs(api)
    }

    /// An Opus + `video` offer; with `senders: false` every `a=msid`, `a=ssrc` and
    /// `a=ssrc-group` line is taken out, which SRS needs to accept a publish (PROTOCOLS.md
    /// section 1, "the code-0 trap").
    func offer(_ direction: MediaDirection, video: CodecCapability = .h264(), senders: Bool = true, seed: UInt64) throws -> String {
        let sdp = try offer(direction, video: video, seed: seed)
        guard !senders else { return sdp }
        return sdp.components(separatedBy: "\r\n").filter { !$0.hasPrefix("a=msid:") && !$0.hasPrefix("a=ssrc") }.joined(separator: "\r\n")
    }

    private func offer(_ direction: MediaDirection, video: CodecCapability, seed: UInt64) throws -> String {
        var generator = SeededGenerator(seed: seed)
        let transport = TransportDescription(
            iceUfrag: "srs\(seed)", icePwd: "rtcswarmpasswordrtcswarm\(seed)",
            fingerprint: Fingerprint(digest: Array(repeating: 0x5a, count: 32)),
            candidates: [Candidate(foundation: "1", priority: 2_130_706_431, address: "127.0.0.1", port: 41_000 + UInt16(seed), kind: .host)],
            sessionID: TransportDescription.randomSessionID(using: &generator))
        let sends = direction == .sendonly
        let audio = SenderDescription(ssrc: 5000 + UInt32(seed), cname: "rtcswarm", streamID: "s", trackID: "a")
        let videoSender = SenderDescription(ssrc: 6000 + UInt32(seed), cname: "rtcswarm", streamID: "s", trackID: "v")
        return try SDPOffer(transceivers: [
            TransceiverDescription(mid: "0", kind: .audio, direction: direction, codecs: [.opus()], sender: sends ? audio : nil),
            TransceiverDescription(mid: "1", kind: .video, direction: direction, codecs: [video], sender: sends ? videoSender : nil),
        ], transport: transport).build().serialize()
    }

    /// Runs `setup` until its answer (or failure) and returns the host and every event.
    func negotiate<Setup: CallSetup>(_ setup: Setup, file: StaticString = #filePath, line: UInt = #line) -> (StreamHost<HTTPSignaling<Setup>>, [CallSetupEvent]) {
        var events: [CallSetupEvent] = []
        let host = StreamHost(loop: loop, machine: HTTPSignaling(setup))
        host.onEvent = { events.append($0) }
        host.start()
        let done = loop.run(until: { events.contains { $0.isAnswer || $0.failure != nil } }, timeout: .seconds(10))
        XCTAssertTrue(done, "SRS at \(api.description) did not answer in 10 s", file: file, line: line)
        return (host, events)
    }

    /// A JSON-API publish or play of `stream` with `offer` (and SRS's `?codec=`, e.g. `hevc`).
    func rtc(_ mode: SRSCallSetup.Mode, stream: String, offer: String, codec: String? = nil) -> SRSCallSetup {
        SRSCallSetup(api: api, streamURL: "webrtc://\(api.host)/live/\(stream)", mode: mode, offer: offer, eip: "127.0.0.1",
                     codec: codec)
    }

    /// A publish offer of `video` alone (with Opus), sent once with SRS's `?codec=` `codec`
    /// and once without: the video `a=rtpmap` and `a=fmtp` lines of the answer SRS gave when
    /// asked, and its refusal when not (nil if it answered then too). Both are printed.
    func publishAskedAndUnasked(video: CodecCapability, codec: String, seed: UInt64,
                                file: StaticString = #filePath, line: UInt = #line) throws -> (asked: [String], unasked: CallSetupError?) {
        let offer = try offer(.sendonly, video: video, seed: seed)
        let (_, asked) = negotiate(rtc(.publish, stream: Self.freshStream(codec), offer: offer, codec: codec), file: file, line: line)
        let answer = try XCTUnwrap(asked.lazy.compactMap(\.answerSDP).first, "SRS with codec=\(codec): \(asked)", file: file, line: line)
        let (_, unasked) = negotiate(rtc(.publish, stream: Self.freshStream(codec), offer: offer), file: file, line: line)
        let refusal = unasked.lazy.compactMap(\.failure).first
        print("srs \(video.name) answer with codec=\(codec): \(Self.videoLines(answer))")
        print("srs \(video.name) offer without codec=\(codec): "
              + (refusal.map { "\($0)" } ?? "answered \(unasked.compactMap(\.answerSDP).map(Self.videoLines))"))
        return (Self.videoLines(answer), refusal)
    }

    /// The `m=video` section's rtpmap and fmtp lines.
    static func videoLines(_ sdp: String) -> [String] {
        let lines = sdp.components(separatedBy: "\r\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("m=video") }) else { return [] }
        return lines[start...].prefix { $0 == lines[start] || !$0.hasPrefix("m=") }.filter { $0.hasPrefix("a=rtpmap") || $0.hasPrefix("a=fmtp") }
    }

    /// A stream name no other test uses.
    static func freshStream(_ label: String) -> String { "rtcswarm-\(label)-\(UInt32.random(in: 1...999_999))" }
}

extension CallSetupEvent {
    var isAnswer: Bool { if case .answer = self { true } else { false } }
    var failure: CallSetupError? { if case .failed(let error) = self { error } else { nil } }
    var answerSDP: String? { if case .answer(let sdp) = self { sdp } else { nil } }
    var noticeText: String? { if case .notice(let text) = self { text } else { nil } }
}
