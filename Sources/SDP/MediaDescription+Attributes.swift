/// Typed views of a media section's attributes (JSEP RFC 9429 5.8, RFC 8839, RFC 8842).
extension MediaDescription {
    /// The first `c=` line of the section.
    public var connection: ConnectionData? {
        lines.lazy.compactMap { line -> ConnectionData? in
            if case .connection(let connection) = line.field { return connection }
            return nil
        }.first
    }

    /// `a=mid` (RFC 5888 4), the section's identification tag used by BUNDLE and JSEP.
    public var mid: String? { first { if case .mid(let mid) = $0 { mid } else { nil } } }

    /// The media-level direction attribute, nil when absent (RFC 3264 5.1: sendrecv).
    public var direction: MediaDirection? {
        get { first { if case .direction(let direction) = $0 { direction } else { nil } } }
        set {
            let index = lines.firstIndex { if case .direction = $0.attribute { true } else { false } }
            removeAttributes { if case .direction = $0 { true } else { false } }
            guard let newValue else { return }
            lines.insert(SDPLine(.direction(newValue)), at: min(index ?? lines.count, lines.count))
        }
    }

    /// `a=rtcp-mux` (RFC 5761 5.1.1): RTP and RTCP share the port.
    public var rtcpMux: Bool { attributes.contains(.rtcpMux) }
    /// A WebRTC data channel section (RFC 8841 4: `m=application ... UDP/DTLS/SCTP webrtc-datachannel`).
    public var isDataChannel: Bool { kind == .application && proto.hasSuffix("DTLS/SCTP") && formats == ["webrtc-datachannel"] }
    /// `a=sctp-port` (RFC 8841 5.1).
    public var sctpPort: UInt16? {
        first { if case .other("sctp-port", let value?) = $0 { UInt16(value) } else { nil } }
    }
    /// `a=rtcp-rsize` (RFC 5506 5): reduced-size RTCP is allowed.
    public var rtcpRsize: Bool { attributes.contains(.rtcpRsize) }
    /// ICE credentials and options of this section (RFC 8839 5.4); see
    /// `SessionDescription.iceCredentials(of:)` for the session-level fallback.
    public var iceUfrag: String? { first { if case .iceUfrag(let ufrag) = $0 { ufrag } else { nil } } }
    public var icePwd: String? { first { if case .icePwd(let pwd) = $0 { pwd } else { nil } } }
    public var iceOptions: [String] { first { if case .iceOptions(let options) = $0 { options } else { nil } } ?? [] }
    /// `a=fingerprint` lines (RFC 8122 5), all hash functions offered.
    public var fingerprints: [Fingerprint] { all { if case .fingerprint(let fingerprint) = $0 { fingerprint } else { nil } } }
    /// `a=setup` (RFC 4145 4).
    public var setup: SetupRole? { first { if case .setup(let role) = $0 { role } else { nil } } }
    /// `a=candidate` lines in order (RFC 8839 5.1) and `a=end-of-candidates` (RFC 8840 4.3).
    public var candidates: [Candidate] { all { if case .candidate(let candidate) = $0 { candidate } else { nil } } }
    public var endOfCandidates: Bool { attributes.contains(.endOfCandidates) }
    /// `a=extmap` (RFC 8285 5), `a=msid` (RFC 8830 2), `a=ssrc-group` (RFC 5576 4.2).
    public var extmaps: [ExtMap] { all { if case .extmap(let extmap) = $0 { extmap } else { nil } } }
    public var msids: [Msid] { all { if case .msid(let msid) = $0 { msid } else { nil } } }
    public var ssrcGroups: [SSRCGroup] { all { if case .ssrcGroup(let group) = $0 { group } else { nil } } }

    /// `a=ssrc` lines grouped by SSRC, in order of first appearance (RFC 5576 4.1).
    public var ssrcs: [SSRCDescription] {
        var result: [SSRCDescription] = []
        for case .ssrc(let line) in attributes {
            let item = SDPParameter(line.name, line.value)
            if let index = result.firstIndex(where: { $0.ssrc == line.ssrc }) {
                result[index].attributes.append(item)
            } else {
                result.append(SSRCDescription(ssrc: line.ssrc, attributes: [item]))
            }
        }
        return result
    }

    /// Adds a candidate (trickle ICE, RFC 8840 4) before `a=end-of-candidates` if present.
    public mutating func addCandidate(_ candidate: Candidate) {
        let end = lines.firstIndex { $0.attribute == .endOfCandidates } ?? lines.count
        lines.insert(SDPLine(.candidate(candidate)), at: end)
    }

    func first<T>(_ pick: (SDPAttribute) -> T?) -> T? {
        for line in lines { if let attribute = line.attribute, let value = pick(attribute) { return value } }
        return nil
    }

    func all<T>(_ pick: (SDPAttribute) -> T?) -> [T] {
        lines.compactMap { $0.attribute.flatMap(pick) }
    }
}
