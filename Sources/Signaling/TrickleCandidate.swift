/// One local ICE candidate for trickling (RFC 8840 section 4).
public struct TrickleCandidate: Hashable, Sendable {
    /// The media section's `a=mid`.
    public var mid: String
    /// The media section's index in the offer.
    public var mLineIndex: Int
    /// The attribute value, `candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host`.
    public var candidate: String

    public init(mid: String, mLineIndex: Int, candidate: String) {
        self.mid = mid
        self.mLineIndex = mLineIndex
        self.candidate = candidate
    }
}
