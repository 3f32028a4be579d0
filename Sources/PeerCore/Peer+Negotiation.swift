import RTP
import RTCBase
import RTPSession
import SDP

/// Turning an offer and an answer into media sections and RTP streams (JSEP RFC 9429
/// 5.3.1, RFC 3264 6).
extension Peer {
    /// Offerer: the sections of our offer that the answer accepted, each with the first
    /// answered codec we offered. A section the answer rejected (port 0) is left out; none
    /// left is an error unless the answer took our data channel section (`acceptsData`).
    func negotiateAnswer(_ answer: SessionDescription, offer: SessionDescription, acceptsData: Bool) throws(PeerError) -> [MediaSection] {
        var sections: [MediaSection] = []
        for (index, transceiver) in configuration.transceivers.enumerated() {
            let answered = answer.section(mid: transceiver.mid)
                ?? (answer.media.indices.contains(index) && answer.media[index].mid == nil ? answer.media[index] : nil)
            guard let answered, !answered.isRejected, let offered = offer.section(mid: transceiver.mid) else { continue }
            let direction = (answered.direction ?? .sendrecv).reversed
            guard let section = try makeSection(
                mid: transceiver.mid, transceiver: index, answer: answered, offer: offered, remote: answered,
                direction: MediaDirection(
                    sends: direction.sends && transceiver.direction.sends,
                    receives: direction.receives && transceiver.direction.receives))
            else {
                throw PeerError(
                    "no common \(transceiver.kind) codec: answer has \(Self.names(answered.codecs)), we offered \(Self.names(transceiver.codecs.map(\.codec)))")
            }
            sections.append(section)
        }
        guard !sections.isEmpty || acceptsData else {
            throw PeerError("answer rejected every media section (port 0 or unknown mids \(answer.media.compactMap(\.mid)))")
        }
        return sections
    }

    /// Offerer: the answer's acceptance of the data channel section we offered (RFC 8841);
    /// nil when we offered none or it was rejected.
    func answeredDataChannel(_ answer: SessionDescription) -> MediaDescription? {
        guard configuration.dataChannels, let data = answer.section(mid: dataChannelMid), data.isDataChannel, !data.isRejected else { return nil }
        return data
    }

    /// Answerer: offered section mid -> local transceiver of the same kind, in order.
    /// Throws when a section we could take shares no codec with us.
    func assignTransceivers(_ offer: SessionDescription) throws(PeerError) -> [String: Int] {
        var result: [String: Int] = [:]
        for section in offer.media where !section.isRejected {
            guard let mid = section.mid,
                let index = configuration.transceivers.indices.first(where: { index in
                    configuration.transceivers[index].kind == section.kind && !result.values.contains(index)
                })
            else { continue }
            let local = configuration.transceivers[index].codecs
            guard CodecNegotiation.answer(offered: section.codecs, local: local).contains(where: { !$0.isRTX }) else {
                throw PeerError(
                    "no common \(section.kind) codec: offered \(Self.names(section.codecs)), we accept \(Self.names(local.map(\.codec)))")
            }
            result[mid] = index
        }
        guard !result.isEmpty || acceptedDataChannel(offer) != nil else {
            throw PeerError(
                "offer has no section we can accept: it has \(offer.media.map { "\($0.kind)" }), we have \(configuration.transceivers.map { "\($0.kind)" })")
        }
        return result
    }

    /// Answerer: the offer's data channel section when we take data channels (RFC 8841);
    /// an offer of only that section (a browser's data-only call) is one we can answer.
    func acceptedDataChannel(_ offer: SessionDescription) -> MediaDescription? {
        configuration.dataChannels ? offer.media.first { $0.isDataChannel && !$0.isRejected && $0.mid != nil } : nil
    }

    /// Answerer: the sections of our answer that accept an offered one.
    func negotiatedSections(answer: SessionDescription, offer: SessionDescription) -> [MediaSection] {
        answer.media.compactMap { answered in
            guard let mid = answered.mid, let index = assignments[mid], !answered.isRejected,
                let offered = offer.section(mid: mid)
            else { return nil }
            return try? makeSection(
                mid: mid, transceiver: index, answer: answered, offer: offered, remote: offered,
                direction: answered.direction ?? .sendrecv)
        }
    }

    /// One section: the answer's first codec we support; we send with its payload type
    /// (the answer repeats the offer's numbers, or the answerer's own, RFC 3264 6.1) and
    /// accept it under the offer's number too. Nil when no codec is shared.
    private func makeSection(
        mid: String, transceiver index: Int, answer: MediaDescription, offer: MediaDescription,
        remote: MediaDescription, direction: MediaDirection
    ) throws(PeerError) -> MediaSection? {
        let transceiver = configuration.transceivers[index]
        var chosen: (codec: PayloadFormat, capability: CodecCapability, peerCodec: Codec)?
        for codec in answer.codecs where !codec.isRTX {
            if let capability = transceiver.codecs.first(where: { CodecNegotiation.matches(codec, $0) }),
                let peerCodec = Codec(encodingName: codec.name)
            {
                chosen = (codec, capability, peerCodec)
                break
            }
        }
        guard let chosen else { return nil }
        var payloadTypes: Set<UInt8> = [chosen.codec.payloadType]
        for codec in offer.codecs where CodecNegotiation.matches(codec, chosen.capability) { payloadTypes.insert(codec.payloadType) }
        let rtx = chosen.capability.rtxPayloadType == nil
            ? nil : answer.codecs.first { $0.isRTX && $0.associatedPayloadType == chosen.codec.payloadType }
        let sender = direction.sends ? senders[index] : nil
        let (remoteSsrc, remoteRtx) = Self.remoteSsrcs(remote)
        let info = NegotiatedSection(
            mid: mid, kind: transceiver.kind, direction: direction, codec: chosen.peerCodec,
            payloadType: chosen.codec.payloadType, rtxPayloadType: rtx?.payloadType,
            nack: chosen.peerCodec.isVideo && chosen.codec.feedback.contains(.nack) && chosen.capability.feedback.contains(.nack),
            localSsrc: sender?.ssrc, remoteSsrc: direction.receives ? remoteSsrc : nil)
        return MediaSection(info: info, receivePayloadTypes: payloadTypes, remoteRtxSsrc: remoteRtx)
    }

    /// The media SSRC and its RTX SSRC from `a=ssrc-group:FID` or the first `a=ssrc`
    /// (RFC 5576 4, RFC 4588 8.6).
    private static func remoteSsrcs(_ section: MediaDescription) -> (UInt32?, UInt32?) {
        if let fid = section.ssrcGroups.first(where: { $0.semantics == "FID" }), fid.ssrcs.count >= 2 {
            return (fid.ssrcs[0], fid.ssrcs[1])
        }
        return (section.ssrcs.first?.ssrc, nil)
    }

    /// Send and receive streams of the negotiated sections.
    func configureStreams() {
        for index in media.indices {
            let info = media[index].info
            if let ssrc = info.localSsrc {
                let rtx = zip(info.rtxPayloadType, senders.values.first { $0.ssrc == ssrc }?.rtxSSRC)
                    .map { SendStream.Rtx(ssrc: $1, payloadType: $0) }
                rtp.addSendStream(.init(
                    ssrc: ssrc, payloadType: info.payloadType, clockRate: info.codec.clockRate, rtx: rtx,
                    // 512 packets: 4 s of a 1 Mbps stream, 0.5 s at 10 Mbps, beyond what a
                    // NACK needs on the networks a load test runs over.
                    cacheCapacity: info.codec.isVideo ? 512 : 0, rtxFallback: configuration.rtxFallback))
                media[index].packetizer = CodecPacketizer(codec: info.codec, pictureId: UInt16.random(in: 0...0x7fff, using: &generator))
            }
            if let ssrc = info.remoteSsrc { addReceiveStream(index, ssrc: ssrc, rtxSsrc: media[index].remoteRtxSsrc) }
        }
    }

    func addReceiveStream(_ index: Int, ssrc: UInt32, rtxSsrc: UInt32?) {
        let info = media[index].info
        media[index].info.remoteSsrc = ssrc
        rtp.addReceiveStream(.init(ssrc: ssrc, clockRate: info.codec.clockRate, nack: info.nack, rtxSsrc: rtxSsrc))
    }

    static func names(_ codecs: [PayloadFormat]) -> String {
        let names = codecs.filter { !$0.isRTX }.map(\.name)
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}

/// Both values or nil.
private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
