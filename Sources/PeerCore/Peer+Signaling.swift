import RTCBase
import SCTP
import SDP

/// Offer/answer (JSEP RFC 9429 5.2-5.3, RFC 3264) with vanilla ICE: descriptions carry
/// the candidates known when they are made; later ones come as `.localCandidate` events.
extension Peer {
    /// The offer (offerers only): BUNDLE, rtcp-mux, rtcp-rsize, `a=setup:actpass`, ICE
    /// credentials, the certificate fingerprint, candidates, `a=end-of-candidates` once
    /// gathering is complete, and `a=msid` + `a=ssrc` + cname on every sending section
    /// (SRS answers an offer without them with no media sections).
    public func createOffer(now: Instant) throws(PeerError) -> String {
        guard configuration.role == .offerer else { throw PeerError("createOffer on an answerer: use createAnswer") }
        let transceivers = configuration.transceivers.enumerated().map { index, transceiver in
            TransceiverDescription(
                mid: transceiver.mid, kind: transceiver.kind, direction: transceiver.direction,
                codecs: transceiver.codecs, sender: senders[index])
        }
        var offerer = SDPOffer(transceivers: transceivers, transport: transportDescription())
        if configuration.dataChannels {
            let defaults = SctpAssociation.Configuration(role: .client)
            offerer.dataChannel = (dataChannelMid, defaults.localPort, defaults.maxMessageSize)
        }
        let offer: SessionDescription
        do {
            offer = try offerer.build()
        } catch {
            throw PeerError("cannot build the offer: \(error)")
        }
        offerModel = offer
        let text = offer.serialize()
        localDescription = text
        if timeline.offerCreated == nil { timeline.offerCreated = now }
        return text
    }

    /// Applies the remote answer to our offer. Throws (and reports `.failed` in the
    /// signaling phase) when it cannot be used, saying why.
    public func setRemoteAnswer(_ text: String, now: Instant) throws(PeerError) {
        try applyRemoteDescription(now: now) { () throws(PeerError) in
            guard configuration.role == .offerer, let offer = offerModel else {
                throw PeerError("setRemoteAnswer needs an offer from createOffer first")
            }
            guard remoteDescription == nil else { throw PeerError("an answer was already applied") }
            let answer = try Self.parse(text, what: "answer")
            guard !answer.media.isEmpty else {
                throw PeerError("answer has no media sections: check msid/ssrc (SRS rejects offers without a=msid and a=ssrc with code 0 and no m-lines)")
            }
            let data = answeredDataChannel(answer)
            let sections = try negotiateAnswer(answer, offer: offer, acceptsData: data != nil)
            // The first accepted media section carries the transport, else (a data-only call) the data channel's.
            guard let first = sections.first.flatMap({ answer.section(mid: $0.info.mid) }) ?? data else {
                throw PeerError("answer lost its sections")
            }
            let setup = answer.setup(of: first) ?? .active
            guard setup == .active || setup == .passive else {
                throw PeerError("answer has a=setup:\(setup.rawValue); an answer must say active or passive (RFC 8842 5.3)")
            }
            try applyRemoteTransport(answer, section: first, local: setup == .active ? .passive : .active, now: now)
            if data != nil { startDataChannels() }
            media = sections
            remoteDescription = text
            offerModel = nil
            configureStreams()
        }
    }

    /// Applies a remote offer (answerers only); `createAnswer` then answers it.
    public func setRemoteOffer(_ text: String, now: Instant) throws(PeerError) {
        try applyRemoteDescription(now: now) { () throws(PeerError) in
            guard configuration.role == .answerer else { throw PeerError("setRemoteOffer on an offerer: use setRemoteAnswer") }
            guard remoteDescription == nil else { throw PeerError("an offer was already applied") }
            let offer = try Self.parse(text, what: "offer")
            guard !offer.media.isEmpty else { throw PeerError("offer has no media sections") }
            assignments = try assignTransceivers(offer)
            guard let first = offer.media.first(where: { $0.mid.map { assignments[$0] != nil } ?? false }) ?? acceptedDataChannel(offer) else {
                throw PeerError("offer lost its sections")
            }
            let setup = (offer.setup(of: first) ?? .actpass).answer
            try applyRemoteTransport(offer, section: first, local: setup, now: now)
            remoteDescription = text
            offerModel = offer
        }
    }

    /// Runs `apply`; a failure is the signaling phase's (reported, then thrown), a success
    /// completes that phase.
    private func applyRemoteDescription(now: Instant, _ apply: () throws(PeerError) -> Void) throws(PeerError) {
        do throws(PeerError) {
            try apply()
        } catch {
            fail(.signaling, error.message)
            throw error
        }
        timeline.remoteDescriptionApplied = now
        events.append(.phaseCompleted(.signaling, at: now))
        flush(now: now)
    }

    /// The answer to the applied offer: its mids and order, the offered payload types
    /// of the codecs both sides have, reversed directions limited by ours,
    /// `a=setup:active` against actpass, and our candidates.
    public func createAnswer(now: Instant) throws(PeerError) -> String {
        if let localDescription { return localDescription }
        guard configuration.role == .answerer, let offer = offerModel else {
            throw PeerError("createAnswer needs a remote offer from setRemoteOffer first")
        }
        var capabilities: [MediaKind: [CodecCapability]] = [:]
        var answerSenders: [String: SenderDescription] = [:]
        for (mid, index) in assignments {
            let transceiver = configuration.transceivers[index]
            if capabilities[transceiver.kind] == nil { capabilities[transceiver.kind] = transceiver.codecs }
            if let sender = senders[index] { answerSenders[mid] = sender }
        }
        var answerer = SDPAnswer(offer: offer, capabilities: capabilities, senders: answerSenders, transport: transportDescription())
        if configuration.dataChannels {
            let defaults = SctpAssociation.Configuration(role: .client)
            answerer.dataChannel = (defaults.localPort, defaults.maxMessageSize)
        }
        var answer = answerer.build()
        if answer.media.contains(where: { $0.isDataChannel && !$0.isRejected }) { startDataChannels() }
        for index in answer.media.indices {
            guard let mid = answer.media[index].mid, let offered = offer.section(mid: mid), !answer.media[index].isRejected,
                  !answer.media[index].isDataChannel
            else { continue }
            let local = assignments[mid].map { configuration.transceivers[$0].direction } ?? .inactive
            let remote = offered.direction ?? .sendrecv
            answer.media[index].direction = MediaDirection(
                sends: local.sends && remote.receives, receives: local.receives && remote.sends)
        }
        media = negotiatedSections(answer: answer, offer: offer)
        configureStreams()
        offerModel = nil
        let text = answer.serialize()
        localDescription = text
        flush(now: now)
        return text
    }

    /// Our ICE credentials, fingerprint and the candidates known now.
    func transportDescription() -> TransportDescription {
        let parts = configuration.certificate.fingerprint.split(separator: " ", maxSplits: 1)
        let fingerprint = Fingerprint(
            hashFunction: parts.first.map(String.init) ?? "sha-256", value: parts.count == 2 ? String(parts[1]) : "")
        return TransportDescription(
            iceUfrag: ice.localCredentials.ufrag, icePwd: ice.localCredentials.pwd, fingerprint: fingerprint,
            candidates: ice.signalledCandidates.map(Self.sdpCandidate), endOfCandidates: isGatheringComplete,
            headerExtensions: [], sessionID: sessionID)
    }

    static func parse(_ text: String, what: String) throws(PeerError) -> SessionDescription {
        do {
            return try SessionDescription.parse(text)
        } catch {
            throw PeerError("\(what) is not valid SDP: \(error)")
        }
    }
}
