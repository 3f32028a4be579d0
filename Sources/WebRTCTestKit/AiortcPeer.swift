import Foundation

/// An aiortc peer (Tests/Interop/aiortc_peer.py in the checkout's `.venv`): an independent
/// WebRTC stack that sends a test pattern and Opus, decodes what it receives and reports
/// it. It offers and connects on 127.0.0.1 only. Tests/Interop/README.md has the protocol.
public final class AiortcPeer: @unchecked Sendable {
    public enum Role: String, Sendable { case offerer, answerer }

    /// The command line of aiortc_peer.py.
    public struct Options: Sendable {
        public var role: Role
        /// "vp8", "h264" or "none".
        public var video: String
        /// "opus" or "none".
        public var audio: String
        public var frames: Int
        public var width: Int
        public var height: Int
        public var fps: Double
        /// Video frames to decode before ending; nil: as many as it sends; 0: do not wait.
        public var expectFrames: Int?
        /// Seconds until it gives up and reports an error.
        public var timeout: Double
        /// A TURN server ("127.0.0.1:3478"): ICE then uses relayed candidates only.
        public var turn: String?
        public var turnUser = "test"
        public var turnPassword = "test"
        /// As offerer, also open a data channel with this label (an `m=application` section).
        public var dataChannel: String?

        public init(role: Role, video: String = "vp8", audio: String = "opus", frames: Int = 30, width: Int = 320,
                    height: Int = 240, fps: Double = 30, expectFrames: Int? = nil, timeout: Double = 20, turn: String? = nil) {
            self.role = role
            self.video = video
            self.audio = audio
            self.frames = frames
            self.width = width
            self.height = height
            self.fps = fps
            self.expectFrames = expectFrames
            self.timeout = timeout
            self.turn = turn
        }

        var arguments: [String] {
            var list = ["--role", role.rawValue, "--video", video, "--audio", audio, "--frames", "\(frames)",
                        "--width", "\(width)", "--height", "\(height)", "--fps", "\(fps)", "--timeout", "\(timeout)"]
            if let expectFrames { list += ["--expect-frames", "\(expectFrames)"] }
            if let turn { list += ["--turn", turn, "--turn-user", turnUser, "--turn-password", turnPassword] }
            if let dataChannel { list += ["--data-channel", dataChannel] }
            return list
        }
    }

    public let options: Options
    public let process: JSONLinesProcess

    /// Starts the script with `python` (the venv's); see `ExternalTool.require` for the
    /// skip rule that finding `python` follows.
    public init(python: URL, script: String, options: Options) throws {
        self.options = options
        process = try JSONLinesProcess(python, ["-u", script] + options.arguments)
    }

    /// Its offer or answer (complete: candidates are in it), or an error with its stderr.
    public func localDescription(timeout: TimeInterval = 10) throws -> String {
        let type = options.role == .offerer ? "offer" : "answer"
        guard let message = process.next(ofType: [type, "summary"], timeout: timeout), message["type"] as? String == type,
              let sdp = message["sdp"] as? String
        else { throw ExternalToolError("aiortc gave no \(type): \(process.standardError.suffix(1500))") }
        return sdp
    }

    /// Hands it the remote offer (answerer) or answer (offerer).
    public func setRemoteDescription(_ sdp: String) throws {
        try process.send(["type": options.role == .offerer ? "answer" : "offer", "sdp": sdp])
    }

    /// Hands it a trickled candidate (`"candidate:..."`); nil signals end of candidates.
    public func addCandidate(_ candidate: String?, mid: String, mLineIndex: Int) throws {
        try process.send(["type": "candidate", "candidate": candidate ?? "", "sdpMid": mid, "sdpMLineIndex": mLineIndex])
    }

    /// Asks it to stop now and report.
    public func bye() throws { try process.send(["type": "bye"]) }

    /// Its closing report, waiting up to `timeout` seconds (the peer's own timeout plus a
    /// margin, by default); the process has exited afterwards.
    public func summary(timeout: TimeInterval? = nil) throws -> AiortcSummary {
        let wait = timeout ?? options.timeout + 5
        guard let message = process.next(ofType: ["summary"], timeout: wait) else {
            throw ExternalToolError("aiortc gave no summary in \(wait) s: \(process.standardError.suffix(1500))")
        }
        _ = process.wait(timeout: 5)
        return try AiortcSummary(message)
    }

    public func stop() { process.stop() }
}
