import RTCBase

extension ParseError.Code {
    /// An SRTP/SRTCP packet whose index was already received or fell behind the replay
    /// window (RFC 3711 3.3.2).
    public static let replayed = ParseError.Code("replayed")
}

extension ParseError {
    /// The authentication tag did not match (RFC 3711 3.3, RFC 7714 5.2.2).
    static let authenticationFailed = ParseError(.integrity, "SRTP authentication tag mismatch")

    static func replayed(_ index: UInt64) -> ParseError {
        ParseError(.replayed, "packet index \(index) already received or too old")
    }
}
