/// Builds an offer (JSEP RFC 9429 5.2.1) from local transceivers: every section bundled
/// (RFC 9143), rtcp-mux on, `a=setup:actpass`, and `a=msid` plus `a=ssrc` (with cname)
/// for every sending section, because SRS answers an offer without them with zero media
/// sections.
public struct SDPOffer: Sendable {
    public var transceivers: [TransceiverDescription]
    public var transport: TransportDescription
    /// A data channel section after the transceivers, bundled with them (RFC 8841).
    public var dataChannel: (mid: String, sctpPort: UInt16, maxMessageSize: Int)?

    public init(transceivers: [TransceiverDescription], transport: TransportDescription) {
        self.transceivers = transceivers
        self.transport = transport
    }

    /// The offer; throws when a sending transceiver has no sender, when mids repeat or
    /// when a transceiver has no codec.
    public func build() throws(SDPBuildError) -> SessionDescription {
        let builder = SDPBuilder(transport: transport)
        var media: [MediaDescription] = []
        for transceiver in transceivers {
            if transceiver.direction.sends && transceiver.sender == nil {
                throw SDPBuildError("transceiver \(transceiver.mid) sends but has no sender (SSRC, msid)")
            }
            if transceiver.codecs.isEmpty { throw SDPBuildError("transceiver \(transceiver.mid) has no codec") }
            if media.contains(where: { $0.mid == transceiver.mid }) {
                throw SDPBuildError("mid \(transceiver.mid) is used twice")
            }
            var section = builder.section(kind: transceiver.kind, mid: transceiver.mid, setup: .actpass)
            for (index, uri) in transport.headerExtensions.enumerated() {
                section.append(.extmap(ExtMap(id: index + 1, uri: uri)))
            }
            let codecs = transceiver.codecs.flatMap { [$0.codec] + ($0.rtxCodec.map { [$0] } ?? []) }
            builder.finish(
                &section, direction: transceiver.direction, sender: transceiver.sender,
                rtcpMux: true, rtcpRsize: transport.rtcpRsize, codecs: codecs)
            media.append(section)
        }
        if let dataChannel {
            if media.contains(where: { $0.mid == dataChannel.mid }) { throw SDPBuildError("mid \(dataChannel.mid) is used twice") }
            media.append(builder.dataChannelSection(proto: "UDP/DTLS/SCTP", mid: dataChannel.mid, setup: .actpass,
                                                    sctpPort: dataChannel.sctpPort, maxMessageSize: dataChannel.maxMessageSize))
        }
        return builder.session(
            bundleMids: transceivers.map(\.mid) + (dataChannel.map { [$0.mid] } ?? []),
            streamIDs: transceivers.compactMap { $0.direction.sends ? $0.sender?.streamID : nil }, media: media)
    }
}
