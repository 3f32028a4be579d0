import ICE
import RTCBase
import STUN

/// An ice-lite peer as SRS is one (RFC 8445 2.5): it answers Binding requests that carry
/// its ufrag and password, never checks, and remembers what was nominated.
struct LiteResponder: Endpoint {
    var credentials: IceCredentials
    var queue: [Transmit] = []
    var nominatedFrom: SocketAddress?
    var requests = 0

    mutating func handle(_ bytes: [UInt8], from source: SocketAddress, to local: SocketAddress, now: Instant) -> [UInt8]? {
        let key = StunKey.shortTerm(password: credentials.pwd)
        guard let request = try? StunMessage.decode(bytes), request.messageClass == .request,
              request.username?.hasPrefix(credentials.ufrag + ":") == true, request.verifyIntegrity(key: key)
        else { return nil }
        requests += 1
        if request.useCandidate { nominatedFrom = source }
        let response = request.response(attributes: [.xorMappedAddress(source)])
        queue.append(Transmit(destination: source, source: local, payload: response.encode(integrityKey: key, fingerprint: true)))
        return nil
    }

    mutating func handleTimeout(now: Instant) {}
    mutating func pollTransmit() -> Transmit? { queue.isEmpty ? nil : queue.removeFirst() }
    func pollTimeout() -> Instant? { nil }
}
