/// The 48-bit SRTP packet index, ROC * 65536 + SEQ (RFC 3711 3.3.1).
enum RtpIndex {
    /// The index of a packet with sequence number `sequence`, given the highest index seen
    /// on this stream so far (RFC 3711 Appendix A). The first packet of a stream starts
    /// with a rollover counter of zero; a guess below zero is taken as zero, as libsrtp
    /// does.
    static func estimate(sequence: UInt16, highest: UInt64?) -> UInt64 {
        guard let highest else { return UInt64(sequence) }
        let roc = highest >> 16
        let last = UInt16(truncatingIfNeeded: highest)
        var guess = roc
        if last < 0x8000 {
            if sequence > last, sequence - last > 0x8000, roc > 0 { guess = roc - 1 }
        } else if last - 0x8000 > sequence {
            guess = roc + 1
        }
        return (guess << 16) | UInt64(sequence)
    }

    /// The rollover counter of `index`, as SRTP authenticates and GCM puts in the IV.
    static func rolloverCounter(_ index: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: index >> 16) }
}
