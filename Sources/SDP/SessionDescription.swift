import RTCBase

/// A session description (RFC 8866) as JSEP (RFC 9429) uses it: one offer or answer with
/// session-level lines and one media section per transceiver (unified plan).
///
/// `SessionDescription.parse(text).serialize() == text` byte for byte: lines keep their
/// exact text, and typed values are read from them. Parsing never traps; malformed input
/// throws a `ParseError` naming the line number and the line.
public struct SessionDescription: Sendable, Hashable {
    /// How lines end; SDP mandates CRLF (RFC 8866 5), LF-only input is accepted too.
    public enum LineEnding: String, Sendable, Hashable {
        case crlf = "\r\n"
        case lf = "\n"
    }

    /// `v=`, always 0.
    public var version: Int
    public var origin: Origin
    /// `s=`; WebRTC stacks send `-`.
    public var sessionName: String
    /// Session-level lines after `s=` (`t=`, `c=`, `b=`, `a=`...), in order.
    public var lines: [SDPLine]
    public var media: [MediaDescription]
    public var lineEnding: LineEnding

    public init(
        origin: Origin, sessionName: String = "-", lines: [SDPLine] = [SDPLine(.timing(Timing()))],
        media: [MediaDescription] = [], lineEnding: LineEnding = .crlf
    ) {
        self.version = 0
        self.origin = origin
        self.sessionName = sessionName
        self.lines = lines
        self.media = media
        self.lineEnding = lineEnding
    }

    /// Session-level attributes, in order.
    public var attributes: [SDPAttribute] { lines.compactMap(\.attribute) }

    /// Adds a canonically printed session-level attribute.
    public mutating func append(_ attribute: SDPAttribute) {
        lines.append(SDPLine(attribute))
    }

    /// The first `t=` line.
    public var timing: Timing? {
        lines.lazy.compactMap { line -> Timing? in
            if case .timing(let timing) = line.field { return timing }
            return nil
        }.first
    }

    /// `a=group` lines (RFC 5888).
    public var groups: [SDPGroup] { attributes.compactMap { if case .group(let group) = $0 { group } else { nil } } }

    /// The mids of the first BUNDLE group (RFC 9143 7.1), empty when there is none.
    public var bundleMids: [String] { groups.first { $0.semantics == "BUNDLE" }?.mids ?? [] }

    /// `a=ice-lite` (RFC 8839 5.3): the remote only answers checks.
    public var iceLite: Bool { attributes.contains(.iceLite) }

    public var msidSemantic: MsidSemantic? {
        attributes.lazy.compactMap { if case .msidSemantic(let semantic) = $0 { semantic } else { nil } }.first
    }

    /// Session-level fingerprints, which apply to sections that have none (RFC 8122 5).
    public var fingerprints: [Fingerprint] {
        attributes.compactMap { if case .fingerprint(let fingerprint) = $0 { fingerprint } else { nil } }
    }

    public var iceUfrag: String? { attributes.lazy.compactMap { if case .iceUfrag(let ufrag) = $0 { ufrag } else { nil } }.first }
    public var icePwd: String? { attributes.lazy.compactMap { if case .icePwd(let pwd) = $0 { pwd } else { nil } }.first }
    public var iceOptions: [String] {
        attributes.lazy.compactMap { if case .iceOptions(let options) = $0 { options } else { nil } }.first ?? []
    }
    public var setup: SetupRole? { attributes.lazy.compactMap { if case .setup(let role) = $0 { role } else { nil } }.first }

    /// ICE credentials of `section`, falling back to the session level (RFC 8839 5.4).
    public func iceCredentials(of section: MediaDescription) -> (ufrag: String, pwd: String)? {
        guard let ufrag = section.iceUfrag ?? iceUfrag, let pwd = section.icePwd ?? icePwd else { return nil }
        return (ufrag, pwd)
    }

    /// Fingerprints of `section`, falling back to the session level (RFC 8122 5).
    public func fingerprints(of section: MediaDescription) -> [Fingerprint] {
        let own = section.fingerprints
        return own.isEmpty ? fingerprints : own
    }

    /// The setup role of `section`, falling back to the session level (RFC 4145 4).
    public func setup(of section: MediaDescription) -> SetupRole? { section.setup ?? setup }

    /// The section whose `a=mid` is `mid`.
    public func section(mid: String) -> MediaDescription? { media.first { $0.mid == mid } }
}
