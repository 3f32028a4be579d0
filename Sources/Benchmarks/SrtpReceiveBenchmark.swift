import RTCBase
import RTP
import SRTP

/// A player's per-packet work between the socket and `RtpSession`, for 1200-byte AES-CM-80
/// video packets with a browser's two header extensions, timed two ways side by side:
/// as the receive path ran before issue 18 item 4 (the socket's bytes copied into an
/// array, SRTP parsing the RTP header, `RtpPacket(parsing:)` parsing it again) and as it
/// runs now (the header parsed once from the borrowed bytes, SRTP decrypting straight
/// from them, the packet reusing the header).
struct SrtpReceiveBenchmark {
    var packets = 200_000
    var batch = 256

    func run() throws {
        let key = (0..<16).map { UInt8($0 &* 7 &+ 1) }
        let salt = (0..<14).map { UInt8($0 &* 13 &+ 5) }
        let sender = SrtpContext(profile: .aesCm128HmacSha1_80, masterKey: key, masterSalt: salt)
        let copying = SrtpContext(profile: .aesCm128HmacSha1_80, masterKey: key, masterSalt: salt)
        let borrowing = SrtpContext(profile: .aesCm128HmacSha1_80, masterKey: key, masterSalt: salt)
        var packet = BenchPacket.rtp(size: 1200, sequence: 0, extensions: BenchPacket.browserExtensions)
        var protected: [[UInt8]] = []
        protected.reserveCapacity(batch)
        var copied = Stopwatch()
        var borrowed = Stopwatch()
        var sequence: UInt16 = 0
        var payloadBytes = (copied: 0, borrowed: 0)
        for _ in 0..<(packets / batch) {
            protected.removeAll(keepingCapacity: true)
            for _ in 0..<batch {
                BenchPacket.setSequence(sequence, in: &packet)
                sequence &+= 1
                protected.append(try sender.protectRtp(packet))
            }
            copied.start()
            for srtp in protected {
                let datagram = srtp.withUnsafeBytes { Array($0) }
                payloadBytes.copied += try RtpPacket(parsing: copying.unprotectRtp(datagram)).payloadRange.count
            }
            copied.stop()
            borrowed.start()
            for srtp in protected {
                payloadBytes.borrowed += try srtp.withParsableBytes { (datagram) throws(ParseError) in
                    let header = try RtpPacketHeader(parsing: datagram)
                    let plain = try borrowing.unprotectRtp(
                        datagram, headerLength: header.length, sequence: header.sequenceNumber, ssrc: header.ssrc)
                    return try RtpPacket(header: header, plain: plain).payloadRange.count
                }
            }
            borrowed.stop()
        }
        let measured = packets / batch * batch
        guard payloadBytes.copied == payloadBytes.borrowed, payloadBytes.copied > 0 else {
            throw BenchmarkError("srtp receive: \(payloadBytes.copied) and \(payloadBytes.borrowed) payload bytes")
        }
        print("rtp srtp unprotect + parse 1200 B AES-CM-80: copied then parsed twice \(copied.perOperation(measured, per: "packet")); "
              + "borrowed, parsed once \(borrowed.perOperation(measured, per: "packet"))")
    }
}
