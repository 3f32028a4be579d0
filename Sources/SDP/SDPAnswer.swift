/// Builds an answer to a remote offer (JSEP RFC 9429 5.3.1): the offer's sections with
/// their mids and order, codecs chosen by `CodecNegotiation`, the reversed direction,
/// `a=setup:active` for an actpass offer, rtcp-mux and rtcp-rsize only where offered, and
/// port 0 for sections no local codec fits (and for sections without `a=mid`, which JSEP
/// requires). A section without a direction attribute counts as sendrecv (RFC 3264 5.1).
public struct SDPAnswer: Sendable {
    public var offer: SessionDescription
    /// Local codecs per media kind; a kind with none is rejected.
    public var capabilities: [MediaKind: [CodecCapability]]
    /// Local senders by mid; a section sends only if the offer lets it receive and a
    /// sender is given here.
    public var senders: [String: SenderDescription]
    public var transport: TransportDescription
    /// When set, an offered data channel section is accepted with this `a=sctp-port` and
    /// `a=max-message-size` (RFC 8841 5, 6); when nil it is declined.
    public var dataChannel: (sctpPort: UInt16, maxMessageSize: Int)?

    public init(
        offer: SessionDescription, capabilities: [MediaKind: [CodecCapability]],
        senders: [String: SenderDescription] = [:], transport: TransportDescription
    ) {
        self.offer = offer
        self.capabilities = capabilities
        self.senders = senders
        self.transport = transport
    }

    public func build() -> SessionDescription {
        let builder = SDPBuilder(transport: transport)
        var media: [MediaDescription] = []
        var accepted: [String] = []
        var streamIDs: [String] = []
        for offered in offer.media {
            if offered.isDataChannel, !offered.isRejected, let mid = offered.mid, let dataChannel {
                let setup = (offer.setup(of: offered) ?? .actpass).answer
                media.append(builder.dataChannelSection(proto: offered.proto, mid: mid, setup: setup, sctpPort: dataChannel.sctpPort,
                                                        maxMessageSize: dataChannel.maxMessageSize))
                accepted.append(mid)
                continue
            }
            let codecs = CodecNegotiation.answer(offered: offered.codecs, local: capabilities[offered.kind] ?? [])
            let setup = (offer.setup(of: offered) ?? .actpass).answer
            guard !offered.isRejected, let mid = offered.mid, codecs.contains(where: { !$0.isRTX }) else {
                media.append(builder.rejected(offered, setup: setup))
                continue
            }
            let offeredDirection = offered.direction ?? .sendrecv
            let sender = offeredDirection.receives ? senders[mid] : nil
            let direction = MediaDirection(sends: sender != nil, receives: offeredDirection.sends)
            var section = builder.section(kind: offered.kind, mid: mid, setup: setup)
            for extmap in offered.extmaps where transport.headerExtensions.contains(extmap.uri) {
                section.append(.extmap(ExtMap(id: extmap.id, uri: extmap.uri)))
            }
            builder.finish(
                &section, direction: direction, sender: sender,
                rtcpMux: offered.rtcpMux, rtcpRsize: transport.rtcpRsize && offered.rtcpRsize, codecs: codecs)
            media.append(section)
            accepted.append(mid)
            if let sender { streamIDs.append(sender.streamID) }
        }
        return builder.session(bundleMids: accepted, streamIDs: streamIDs, media: media)
    }
}
