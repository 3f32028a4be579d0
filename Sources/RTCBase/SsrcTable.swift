/// Per-SSRC state in a short array searched in order: a session or an SRTP context sees a
/// few SSRCs (audio, video, their RTX), and a dictionary hashed the SSRC (SipHash) on
/// every lookup, several times per received packet (`PeerReceiveBenchmark`: 4 % of a
/// player's instructions). RFC 3711 3.2.3 keeps an SRTP context's state per SSRC; RFC 3550
/// 8.2 a session's per source. Lookups cost the number of SSRCs, so it is for those few.
public struct SsrcTable<Value>: Sendable where Value: Sendable {
    private var entries: [(ssrc: UInt32, value: Value)] = []

    public init() {}

    public subscript(ssrc: UInt32) -> Value? {
        get {
            for index in entries.indices where entries[index].ssrc == ssrc { return entries[index].value }
            return nil
        }
        set {
            guard let index = entries.firstIndex(where: { $0.ssrc == ssrc }) else {
                if let newValue { entries.append((ssrc, newValue)) }
                return
            }
            if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
        }
    }
}
