import RTCBase

/// The `t=` line (RFC 8866 5.9); WebRTC always sends `t=0 0` (unbounded session).
public struct Timing: Sendable, Hashable, CustomStringConvertible {
    /// NTP seconds; 0 means unbounded.
    public var start: UInt64
    public var stop: UInt64

    public init(start: UInt64 = 0, stop: UInt64 = 0) {
        self.start = start
        self.stop = stop
    }

    public init(parsing text: Substring) throws(ParseError) {
        let fields = try SDPSyntax.tokens(text, "timing")
        guard fields.count == 2 else { throw .invalid("timing needs 2 fields, has \(fields.count)") }
        start = try SDPSyntax.integer(fields[0], "start time")
        stop = try SDPSyntax.integer(fields[1], "stop time")
    }

    public var description: String { "\(start) \(stop)" }
}
