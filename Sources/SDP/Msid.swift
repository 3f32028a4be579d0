import RTCBase

/// `a=msid` (RFC 8830 2): the MediaStream id and track id a sending m-section feeds.
public struct Msid: Sendable, Hashable, CustomStringConvertible {
    /// The stream id, or `-` for a track in no stream.
    public var streamID: String
    public var trackID: String?

    public init(streamID: String, trackID: String?) {
        self.streamID = streamID
        self.trackID = trackID
    }

    public init(parsing text: Substring) throws(ParseError) {
        let fields = try SDPSyntax.tokens(text, "msid")
        guard fields.count <= 2 else { throw .invalid("msid has \(fields.count) fields, at most 2 allowed") }
        streamID = String(fields[0])
        trackID = fields.count == 2 ? String(fields[1]) : nil
    }

    public var description: String { trackID.map { "\(streamID) \($0)" } ?? streamID }
}
