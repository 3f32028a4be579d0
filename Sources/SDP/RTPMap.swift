import RTCBase

/// `a=rtpmap` (RFC 8866 6.6): `<payload type> <encoding name>/<clock rate>[/<channels>]`.
public struct RTPMap: Sendable, Hashable, CustomStringConvertible {
    public var payloadType: UInt8
    public var name: String
    public var clockRate: Int
    public var channels: Int?

    public init(payloadType: UInt8, name: String, clockRate: Int, channels: Int? = nil) {
        self.payloadType = payloadType
        self.name = name
        self.clockRate = clockRate
        self.channels = channels
    }

    public init(parsing text: Substring) throws(ParseError) {
        let (pt, encoding) = try SDPSyntax.splitSpace(text, "rtpmap")
        payloadType = try SDPSyntax.payloadType(pt)
        let parts = encoding.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else {
            throw .invalid("rtpmap encoding '\(encoding)' is not name/rate[/channels]")
        }
        name = try SDPSyntax.token(parts[0], "encoding name")
        clockRate = try SDPSyntax.int(parts[1], "clock rate")
        channels = parts.count == 3 ? try SDPSyntax.int(parts[2], "channels", max: 255) : nil
    }

    public var description: String {
        "\(payloadType) \(name)/\(clockRate)" + (channels.map { "/\($0)" } ?? "")
    }
}
