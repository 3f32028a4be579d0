import DTLS
import ICE
import RTCBase
import RTPSession
import SCTP
import SDP
import SRTP

/// ICE and DTLS events, SRTP keys, and everything that leaves through the selected pair.
extension Peer {
    /// Moves outputs between the parts after any input: ICE events (which may start
    /// DTLS), DTLS flights and events, then RTP/RTCP to protect. Datagrams all end in
    /// the ICE agent's queue, which `pollTransmit()` drains.
    func flush(now: Instant) {
        drainIce(now: now)
        drainDtls(now: now)
        drainRtp(now: now)
    }

    private func drainIce(now: Instant) {
        while let event = ice.pollEvent() {
            switch event {
            case .localCandidate(let candidate):
                if candidate.type == .srflx || candidate.type == .relay { gatherAnswered() }
                if localDescription != nil, let mid = media.first?.info.mid ?? configuration.transceivers.first?.mid {
                    events.append(.localCandidate(Self.sdpCandidate(candidate), mid: mid))
                }
            case .turnFailed:
                gatherAnswered()
            case .stateChanged(let state, let reason):
                events.append(.iceStateChanged(state))
                iceStateChanged(state, reason: reason, now: now)
            case .selectedPairChanged:
                iceRestartSelectedPair(now: now)
            case .roleChanged:
                break
            }
        }
    }

    private func iceStateChanged(_ state: IceConnectionState, reason: IceStateReason, now: Instant) {
        switch state {
        case .connected, .completed:
            guard timeline.iceConnected == nil else { return }
            timeline.iceConnected = now
            events.append(.phaseCompleted(.ice, at: now))
            dtls?.retransmitTimeout = Self.dtlsRetransmitTimeout(roundTrip: ice.stats.selectedPairRtt, profile: ice.options.profile)
            dtls?.start(now: now)
            deliverEarlyDtls(now: now)
        case .failed:
            isConnected = false
            fail(timeline.iceConnected == nil ? .ice : .connected, "ICE failed: \(reason.rawValue)")
        case .new, .checking, .disconnected:
            break
        }
    }

    /// The first DTLS retransmission timer once ICE knows the round trip: twice it, kept
    /// within the profile's bounds; it doubles on each expiry (RFC 6347 4.2.4.1).
    /// - `libwebrtc`: 50 ms to 3 s, as libwebrtc's DTLS transport bounds it; Chromium on
    ///   loopback sends a lost flight again 58-66 ms later (`BrowserCohortSetupTests`).
    /// - `rfc8445`: 100 ms (what RFC 9147 5.8.2 suggests for real-time use instead of
    ///   RFC 6347's 1 s) to 1 s.
    /// Without a round trip, 1 s (RFC 6347 4.2.4.1).
    static func dtlsRetransmitTimeout(roundTrip: Duration?, profile: IceProfile) -> Duration {
        guard let roundTrip else { return .seconds(1) }
        let (floor, ceiling): (Duration, Duration) = profile == .libwebrtc ? (.milliseconds(50), .seconds(3)) : (.milliseconds(100), .seconds(1))
        return min(ceiling, max(floor, roundTrip * 2))
    }

    private func gatherAnswered() {
        pendingGathers -= 1
        if pendingGathers <= 0 { completeGathering() }
    }

    func completeGathering() {
        guard !isGatheringComplete else { return }
        isGatheringComplete = true
        events.append(.gatheringComplete)
    }

    /// DTLS flights go out once a pair is selected (before that OpenSSL keeps them and
    /// retransmits); the handshake's end installs the SRTP contexts (RFC 5764 4.2).
    func drainDtls(now: Instant) {
        guard let dtls else { return }
        while let event = dtls.pollEvent() {
            switch event {
            case .connected(let profile, let keys):
                installSrtp(profile: profile, keys: keys, now: now)
            case .failed(let reason):
                fail(isConnected ? .connected : .dtls, "DTLS: \(reason)")
                isConnected = false
            case .closed:
                finishClosing(now: now)
            case .applicationData(let packet):
                // SCTP for data channels (RFC 8261); dropped when none was negotiated.
                sctp?.handle(packet, now: now)
            }
        }
        drainSctp(into: dtls)
        if ice.hasSelectedPair {
            while let datagram = dtls.pollTransmit() { _ = ice.send(datagram) }
        }
    }

    /// SCTP packets become DTLS records (RFC 8261 3); its events become the peer's.
    private func drainSctp(into dtls: DtlsEndpoint) {
        guard dataChannelsNegotiated else { return }
        while let packet = sctp?.pollTransmit() { dtls.send(applicationData: packet) }
        while let event = sctp?.pollEvent() { events.append(.dataChannel(event)) }
    }

    private func installSrtp(profile: DtlsSrtpProfile, keys: DtlsSrtpKeys, now: Instant) {
        guard let srtpProfile = SrtpProfile(name: profile.name) else {
            return fail(.dtls, "DTLS negotiated \(profile.name), which SRTP does not implement")
        }
        srtpOut = SrtpContext(profile: srtpProfile, masterKey: keys.localMasterKey, masterSalt: keys.localMasterSalt)
        srtpIn = SrtpContext(profile: srtpProfile, masterKey: keys.remoteMasterKey, masterSalt: keys.remoteMasterSalt)
        timeline.dtlsConnected = now
        events.append(.phaseCompleted(.dtls, at: now))
        isConnected = true
        events.append(.connected)
        // Both ends may send INIT (RFC 8841 9.3); the association handles the collision.
        sctp?.connect(now: now)
    }

    /// Protects what RtpSession queued and sends it over the selected pair.
    func drainRtp(now: Instant) {
        while let packet = rtp.pollTransmit() {
            guard let srtpOut else { continue }
            let protected: [UInt8]
            do {
                switch packet {
                case .rtp(let bytes): protected = try srtpOut.protectRtp(bytes)
                case .rtcp(let bytes): protected = try srtpOut.protectRtcp(bytes)
                }
            } catch {
                continue
            }
            _ = ice.send(protected)
        }
        while let event = rtp.pollEvent() {
            guard case .keyframeRequested(let ssrc) = event,
                let section = media.first(where: { $0.info.localSsrc == ssrc })
            else { continue }
            events.append(.keyframeRequested(mid: section.info.mid))
        }
    }

    // MARK: - Remote transport parameters

    /// The remote's ICE credentials, ice-lite and the candidates of its accepted sections
    /// (RFC 8839 5.1, 5.4), on the first description and again on an ICE restart.
    func takeRemoteIce(_ credentials: (ufrag: String, pwd: String), from remote: SessionDescription) {
        ice.setRemoteCredentials(IceCredentials(ufrag: credentials.ufrag, pwd: credentials.pwd), isLite: remote.iceLite)
        var ended = false
        for described in remote.media where !described.isRejected {
            for candidate in described.candidates {
                if let parsed = IceCandidate(sdp: candidate.attributeValue) { ice.addRemoteCandidate(parsed) }
            }
            ended = ended || described.endOfCandidates
        }
        if ended { ice.endOfRemoteCandidates() }
    }

    /// ICE credentials and candidates, ice-lite, the DTLS role and fingerprint from a
    /// remote description (RFC 8839 5, RFC 8842 5, RFC 8122 5). `local` is this side's
    /// setup role, already decided.
    func applyRemoteTransport(
        _ remote: SessionDescription, section: MediaDescription, local: SetupRole, now: Instant
    ) throws(PeerError) {
        let kind = configuration.role == .offerer ? "answer" : "offer"
        guard let credentials = remote.iceCredentials(of: section) else {
            throw PeerError("\(kind) has no a=ice-ufrag/a=ice-pwd for section \(section.mid ?? "?")")
        }
        let fingerprints = remote.fingerprints(of: section)
        guard let fingerprint = fingerprints.first(where: { $0.hashFunction.lowercased() == "sha-256" }) ?? fingerprints.first
        else { throw PeerError("\(kind) has no a=fingerprint: DTLS cannot authenticate the remote") }
        let role: DtlsRole
        switch local {
        case .active: role = .client
        case .passive: role = .server
        case .actpass, .holdconn: throw PeerError("\(kind) leaves the DTLS role open (a=setup:\(local.rawValue))")
        }
        do {
            dtls = try DtlsEndpoint(
                role: role, certificate: configuration.certificate, remoteFingerprint: fingerprint.description)
        } catch {
            throw PeerError("\(kind) fingerprint '\(fingerprint)' is unusable: \(error)")
        }
        takeRemoteIce(credentials, from: remote)
        // Only a DTLS server has anything to answer before it speaks.
        if role == .client { earlyDtls = [] }
        deliverEarlyDtls(now: now)
    }

    /// Hands the DTLS server what came early (`handleDtls`) once a pair is usable.
    func deliverEarlyDtls(now: Instant) {
        guard dtls != nil, timeline.iceConnected != nil, !earlyDtls.isEmpty else { return }
        let early = earlyDtls
        earlyDtls = []
        for datagram in early { handleDtls(datagram, now: now) }
    }

    /// Adds a trickled remote candidate (RFC 8838); `nil` or a candidate that is not UDP
    /// component 1 is ignored and returns false.
    @discardableResult
    public func addRemoteCandidate(_ candidate: String, now: Instant) -> Bool {
        guard !isClosed, let parsed = IceCandidate(sdp: candidate) else { return false }
        ice.addRemoteCandidate(parsed)
        flush(now: now)
        return true
    }

    /// The remote signalled end-of-candidates (RFC 8838 8.2).
    public func endOfRemoteCandidates(now: Instant) {
        ice.endOfRemoteCandidates()
        flush(now: now)
    }

    /// An ICE candidate as an SDP `a=candidate` (RFC 8839 5.1).
    static func sdpCandidate(_ candidate: IceCandidate) -> Candidate {
        Candidate(
            foundation: candidate.foundation, priority: candidate.priority, address: candidate.address.host,
            port: candidate.address.port, kind: Candidate.Kind(rawValue: candidate.type.rawValue) ?? .host,
            relatedAddress: candidate.relatedAddress?.host, relatedPort: candidate.relatedAddress?.port)
    }
}
