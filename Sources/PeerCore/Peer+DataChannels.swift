import RTCBase
import SCTP

/// Data channels (RFC 8831) over the association the answer negotiated; events come out
/// as `PeerEvent.dataChannel`.
extension Peer {
    /// The mid of the data channel section we offer: the first number no transceiver uses.
    var dataChannelMid: String {
        let used = Set(configuration.transceivers.map(\.mid))
        return (0...).lazy.map(String.init).first { !used.contains($0) }!
    }

    /// The association for a negotiated data channel section; it sends INIT once DTLS is
    /// up. The DTLS client takes even stream ids (RFC 8832 6).
    func startDataChannels() {
        guard !dataChannelsNegotiated, let role = dtls?.role else { return }
        sctp = SctpAssociation(configuration: .init(role: role == .client ? .client : .server), seed: generator.next())
        dataChannelsNegotiated = true
    }

    /// Opens a channel (DCEP, or at once for a negotiated id) and returns its stream id.
    public func openDataChannel(_ options: DataChannelOptions, now: Instant) throws(PeerError) -> UInt16 {
        let opened: UInt16?
        do {
            opened = try sctp?.openChannel(options, now: now)
        } catch {
            throw PeerError("data channel \(options.label): \(error)")
        }
        guard let opened else { throw PeerError("no data channel was negotiated") }
        flush(now: now)
        return opened
    }

    /// Sends one message on an open channel.
    public func sendData(_ bytes: [UInt8], isString: Bool = false, on channel: UInt16, now: Instant) throws(PeerError) {
        guard dataChannelsNegotiated else { throw PeerError("no data channel was negotiated") }
        do {
            try sctp?.send(bytes, isString: isString, on: channel, now: now)
        } catch {
            throw PeerError("data channel \(channel): \(error)")
        }
        flush(now: now)
    }
}
