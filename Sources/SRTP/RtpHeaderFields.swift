import RTCBase

/// The RTP header fields SRTP needs: its length (what stays in the clear), the SSRC
/// and the sequence number (RFC 3550 5.1 and 5.3.1).
struct RtpHeaderFields {
    let length: Int
    let sequence: UInt16
    let ssrc: UInt32

    init(_ packet: [UInt8]) throws(ParseError) {
        var reader = ByteReader(packet)
        let first = try reader.readU8("RTP V/P/X/CC")
        guard first >> 6 == 2 else { throw .invalid("RTP version \(first >> 6)") }
        try reader.skip(1, "RTP M/PT")
        sequence = try reader.readU16("RTP sequence number")
        try reader.skip(4, "RTP timestamp")
        ssrc = try reader.readU32("RTP SSRC")
        try reader.skip(4 * Int(first & 0x0f), "RTP CSRC list")
        if first & 0x10 != 0 {
            try reader.skip(2, "RTP extension profile")
            let words = try reader.readU16("RTP extension length")
            try reader.skip(4 * Int(words), "RTP extension")
        }
        length = reader.offset
    }
}
