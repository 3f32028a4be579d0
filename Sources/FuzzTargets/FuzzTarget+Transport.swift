import RTCBase
import RTP
import SRTP
import STUN

/// The packets a peer reads off its UDP socket: STUN/TURN, RTP and RTCP, SRTP.
extension FuzzTarget {
    /// STUN messages (RFC 8489 5) with MESSAGE-INTEGRITY checked, and TURN ChannelData (RFC 8656 12.4).
    public static let stun = FuzzTarget(name: "stun", seeds: {
        let id = TransactionID(high: 1, low: 2)
        let request = StunMessage(method: .binding, messageClass: .request, transactionID: id, attributes: [
            .username("a:b"), .priority(0x6e00_01ff), .iceControlling(7), .useCandidate,
        ])
        let allocation = StunMessage(method: .allocate, messageClass: .successResponse, transactionID: id, attributes: [
            .xorRelayedAddress(SocketAddress("127.0.0.1:49160")!), .xorMappedAddress(SocketAddress("[::1]:5")!),
            .lifetime(600), .errorCode(.staleNonce), .nonce("abc"), .realm("r"), .data([1, 2, 3]),
            .unknownAttributes([1, 2, 3]), .channelNumber(0x4000), .requestedTransport(17), .software("x"),
        ])
        return [request.encode(integrityKey: [1], fingerprint: true), allocation.encode(integrityKey: [1], fingerprint: true),
                ChannelData(channel: 0x4001, payload: [9, 9]).encode()]
    }, run: { input in
        let message = try? StunMessage.decode(input)
        _ = message?.verifyIntegrity(key: [1])
        let channelData = try? ChannelData.decode(input)
        return message != nil || channelData != nil
    })

    /// RTP packets with header extensions (RFC 3550 5.1, RFC 8285) and compound RTCP
    /// (RFC 3550 6, RFC 4585 6, transport-wide congestion control feedback).
    public static let rtp = FuzzTarget(name: "rtp", seeds: {
        rtpSeeds() + rtcpSeeds()
    }, run: { input in
        var accepted = (try? RtpPacket(parsing: input)) != nil
        var reader = RtcpCompoundReader(input)
        while let packet = try? reader.next() {
            accepted = true
            if case .transportCc(let feedback) = packet { _ = feedback.arrivalMicroseconds }
            if case .nack(let nack) = packet { _ = nack.lostSequenceNumbers }
        }
        return accepted
    })

    /// SRTP and SRTCP unprotect (RFC 3711 3.3, 3.4; RFC 7714) under both profiles, with a
    /// fresh context per input so that the replay window never makes an input's outcome
    /// depend on the ones before it.
    public static let srtp = FuzzTarget(name: "srtp", seeds: {
        SrtpProfile.allCases.flatMap { profile in
            let sender = srtpContext(profile)
            return rtpSeeds().compactMap { try? sender.protectRtp($0) } + rtcpSeeds().compactMap { try? sender.protectRtcp($0) }
        }
    }, run: { input in
        SrtpProfile.allCases.reduce(false) { accepted, profile in
            let receiver = srtpContext(profile)
            let rtp = (try? receiver.unprotectRtp(input)) != nil
            let rtcp = (try? receiver.unprotectRtcp(input)) != nil
            return accepted || rtp || rtcp
        }
    })

    private static func srtpContext(_ profile: SrtpProfile) -> SrtpContext {
        SrtpContext(profile: profile, masterKey: [UInt8](repeating: 1, count: profile.masterKeyLength),
                    masterSalt: [UInt8](repeating: 2, count: profile.masterSaltLength))
    }

    private static func rtpSeeds() -> [[UInt8]] {
        (0..<4).map { index in
            var writer = ByteWriter()
            RtpHeader(marker: index % 2 == 0, payloadType: 96, sequenceNumber: UInt16(index), timestamp: 2, ssrc: 3,
                      csrcs: Array(repeating: 4, count: index),
                      extensions: index < 2 ? [.init(id: 1, value: [1]), .init(id: 2, value: [1, 2, 3])] : [.init(id: 20, value: [5])])
                .write(payload: [UInt8](repeating: UInt8(index), count: 10 * index), padding: UInt8(index), to: &writer)
            return writer.bytes
        }
    }

    /// One RTCP packet of each kind the reader knows (RFC 3550 6.4-6.6, RFC 4585 6.2-6.3,
    /// RFC 5104 4.3.1, REMB, transport-wide feedback): the seeds of every RTCP fuzzer.
    public static let rtcpSamples: [RtcpPacket] = {
        let block = ReportBlock(ssrc: 2, fractionLost: 1, cumulativeLost: 2, extendedHighestSequence: 3)
        return [
            .senderReport(SenderReport(ssrc: 1, ntpTimestamp: 2, rtpTimestamp: 3, packetCount: 4, octetCount: 5, reports: [block])),
            .receiverReport(ReceiverReport(ssrc: 1, reports: [block])),
            .sourceDescription(SourceDescription(chunks: [.init(ssrc: 1, cname: "cname")])),
            .goodbye(Goodbye(ssrcs: [1], reason: "bye")),
            .nack(GenericNack(senderSsrc: 1, mediaSsrc: 2, lost: [1, 3, 40])),
            .pictureLoss(PictureLossIndication(senderSsrc: 1, mediaSsrc: 2)),
            .fullIntraRequest(FullIntraRequest(senderSsrc: 1, entries: [.init(ssrc: 2, sequenceNumber: 3)])),
            .remb(ReceiverEstimatedMaxBitrate(senderSsrc: 1, bitrate: 1_000_000, ssrcs: [2])),
            .transportCc(TransportCcFeedback(senderSsrc: 1, mediaSsrc: 2, baseSequence: 3, referenceTime: 4, feedbackCount: 5,
                                             deltas: [1, nil, 300, 2, 2, 2, 2, 2, 2, 2, 2])),
        ]
    }()

    /// Each sample alone, then all of them as one compound packet.
    private static func rtcpSeeds() -> [[UInt8]] {
        var compound = ByteWriter()
        let single = rtcpSamples.map { packet in
            var writer = ByteWriter()
            packet.write(to: &writer)
            packet.write(to: &compound)
            return writer.bytes
        }
        return single + [compound.bytes]
    }
}
