/// Lines shared by offers and answers: session header and the transport and sender parts
/// of a media section, in the order Chromium writes them.
struct SDPBuilder {
    let transport: TransportDescription

    /// `v=`...`a=msid-semantic` with BUNDLE over `bundleMids` (RFC 9143 7.1).
    func session(bundleMids: [String], streamIDs: [String], media: [MediaDescription]) -> SessionDescription {
        var session = SessionDescription(
            origin: Origin(sessionID: transport.sessionID, sessionVersion: transport.sessionVersion),
            media: media)
        if transport.iceLite { session.append(.iceLite) }
        if !bundleMids.isEmpty { session.append(.group(.bundle(bundleMids))) }
        if transport.trickle { session.append(.iceOptions(["trickle"])) }
        var unique: [String] = []
        for id in streamIDs where !unique.contains(id) { unique.append(id) }
        session.append(.msidSemantic(MsidSemantic(identifiers: unique.isEmpty ? ["*"] : unique)))
        return session
    }

    /// An accepted section up to `a=mid`: `c=`, candidates, ICE credentials,
    /// fingerprint, setup (JSEP RFC 9429 5.2.1). The port and `c=` come from the first
    /// UDP candidate, or are 9 and 0.0.0.0 when there is none yet.
    func section(kind: MediaKind, mid: String, setup: SetupRole) -> MediaDescription {
        let first = transport.candidates.first { $0.transport.lowercased() == "udp" }
        var section = MediaDescription(kind: kind, port: first?.port ?? 9, formats: [])
        section.lines.append(SDPLine(.connection(ConnectionData(address: first?.address ?? "0.0.0.0"))))
        for candidate in transport.candidates { section.append(.candidate(candidate)) }
        if transport.endOfCandidates { section.append(.endOfCandidates) }
        section.append(.iceUfrag(transport.iceUfrag))
        section.append(.icePwd(transport.icePwd))
        section.append(.fingerprint(transport.fingerprint))
        section.append(.setup(setup))
        section.append(.mid(mid))
        return section
    }

    /// A rejected section (RFC 3264 6, JSEP RFC 9429 5.3.1): port 0, one format, `a=mid`,
    /// and the transport lines an accepted section has (ICE credentials, fingerprint, the
    /// answered setup role), which JSEP lets a rejected section keep; an RTP section also
    /// says inactive and echoes rtcp-mux. The section stays out of the BUNDLE group
    /// (RFC 8843 7.3.3). A bare section (`c=` and `a=mid` only) makes aiortc 1.16 refuse
    /// the whole answer: it checks every section for ICE credentials, a setup role and,
    /// for audio and video, rtcp-mux.
    func rejected(_ offered: MediaDescription, setup: SetupRole) -> MediaDescription {
        var section = MediaDescription(kind: offered.kind, port: 0, proto: offered.proto,
                                       formats: [offered.formats.first ?? "0"])
        section.lines.append(SDPLine(.connection(ConnectionData(address: "0.0.0.0"))))
        section.append(.iceUfrag(transport.iceUfrag))
        section.append(.icePwd(transport.icePwd))
        section.append(.fingerprint(transport.fingerprint))
        section.append(.setup(setup))
        if let mid = offered.mid { section.append(.mid(mid)) }
        if offered.kind == .audio || offered.kind == .video {
            section.append(.direction(.inactive))
            if offered.rtcpMux { section.append(.rtcpMux) }
        }
        return section
    }

    /// A data channel section (RFC 8841 4 to 6): `m=application ... webrtc-datachannel`
    /// with the transport lines, `a=sctp-port` and `a=max-message-size`.
    func dataChannelSection(proto: String, mid: String, setup: SetupRole, sctpPort: UInt16,
                            maxMessageSize: Int) -> MediaDescription {
        var section = section(kind: .application, mid: mid, setup: setup)
        section.proto = proto
        section.formats = ["webrtc-datachannel"]
        section.append(.other(name: "sctp-port", value: "\(sctpPort)"))
        section.append(.other(name: "max-message-size", value: "\(maxMessageSize)"))
        return section
    }

    /// Direction, msid, rtcp-mux, rtcp-rsize, codecs and SSRC lines of a section.
    func finish(
        _ section: inout MediaDescription, direction: MediaDirection, sender: SenderDescription?,
        rtcpMux: Bool, rtcpRsize: Bool, codecs: [PayloadFormat]
    ) {
        section.append(.direction(direction))
        if let sender { section.append(.msid(Msid(streamID: sender.streamID, trackID: sender.trackID))) }
        if rtcpMux { section.append(.rtcpMux) }
        if rtcpRsize { section.append(.rtcpRsize) }
        for codec in codecs { section.appendCodec(codec) }
        guard let sender else { return }
        var ssrcs = [sender.ssrc]
        if let rtx = sender.rtxSSRC, codecs.contains(where: \.isRTX) {
            section.append(.ssrcGroup(SSRCGroup(semantics: "FID", ssrcs: [sender.ssrc, rtx])))
            ssrcs.append(rtx)
        }
        for ssrc in ssrcs {
            section.append(.ssrc(SSRCAttribute(ssrc: ssrc, name: "cname", value: sender.cname)))
            section.append(.ssrc(SSRCAttribute(ssrc: ssrc, name: "msid", value: "\(sender.streamID) \(sender.trackID)")))
        }
    }
}
