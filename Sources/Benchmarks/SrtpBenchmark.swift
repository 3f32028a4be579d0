import LibSRTPReference
import Foundation
import SRTP

/// Protect and unprotect of RTP packets (1200 bytes, and 160 for audio), per profile, for rtcswarm's
/// `SrtpContext` and for libsrtp2. Packets go through in batches: `batch` protected,
/// then those `batch` unprotected by the receiving side, each phase timed apart.
///
/// `SrtpContext` returns a new array per call; libsrtp works in place, so its protect
/// figure includes copying the plain packet into the buffer first (as a sender that
/// keeps its plain packet for retransmission must).
struct SrtpBenchmark {
    var packets = 100_000
    var packetSize = 1200
    /// Run again at this size: an Opus packet, where the fixed per-packet work shows.
    static let audioPacketSize = 160
    var batch = 256
    /// Packets run through first, untimed (caches, allocator, CPU frequency).
    var warmup = 10_240

    func run() throws {
        let key = (0..<16).map { UInt8($0 &* 7 &+ 1) }
        let salt = (0..<14).map { UInt8($0 &* 13 &+ 5) }
        for profile in SrtpProfile.allCases {
            let masterSalt = Array(salt.prefix(profile.masterSaltLength))
            _ = try measureContext(profile, key: key, salt: masterSalt, packets: warmup)
            let (protect, unprotect) = try measureContext(profile, key: key, salt: masterSalt, packets: packets)
            report("rtcswarm", profile, protect, unprotect)
            _ = try measureLibSrtp(profile, key: key, salt: masterSalt, packets: warmup)
            guard let (libProtect, libUnprotect) = try measureLibSrtp(profile, key: key, salt: masterSalt, packets: packets)
            else {
                print("srtp libsrtp2 \(profile): libsrtp2 refused the profile, not measured")
                continue
            }
            report("libsrtp2", profile, libProtect, libUnprotect)
        }
    }

    private func report(_ implementation: String, _ profile: SrtpProfile, _ protect: Stopwatch, _ unprotect: Stopwatch) {
        let total = Stopwatch.sum(protect, unprotect)
        print("srtp \(implementation) \(profile) \(packetSize) B: protect \(protect.perOperation(packets, per: "packet")); "
              + "unprotect \(unprotect.perOperation(packets, per: "packet")); "
              + "both \(total.perOperation(packets, per: "packet"))")
    }

    private func measureContext(_ profile: SrtpProfile, key: [UInt8], salt: [UInt8], packets: Int) throws
        -> (Stopwatch, Stopwatch)
    {
        let sender = SrtpContext(profile: profile, masterKey: key, masterSalt: salt)
        let receiver = SrtpContext(profile: profile, masterKey: key, masterSalt: salt)
        var packet = BenchPacket.rtp(size: packetSize, sequence: 0)
        var protected: [[UInt8]] = []
        protected.reserveCapacity(batch)
        var protect = Stopwatch()
        var unprotect = Stopwatch()
        var sequence: UInt16 = 0
        var recovered = 0
        for _ in 0..<(packets / batch) {
            protected.removeAll(keepingCapacity: true)
            protect.start()
            for _ in 0..<batch {
                BenchPacket.setSequence(sequence, in: &packet)
                sequence &+= 1
                protected.append(try sender.protectRtp(packet))
            }
            protect.stop()
            unprotect.start()
            for srtp in protected { recovered += try receiver.unprotectRtp(srtp).count }
            unprotect.stop()
        }
        guard recovered == packets / batch * batch * packetSize else {
            throw BenchmarkError("SrtpContext \(profile): \(recovered) bytes unprotected")
        }
        return (protect, unprotect)
    }

    /// Nil when libsrtp2 refuses the profile.
    private func measureLibSrtp(_ profile: SrtpProfile, key: [UInt8], salt: [UInt8], packets: Int) throws
        -> (Stopwatch, Stopwatch)?
    {
        guard let sender = LibSrtpSession(profile: profile, masterKey: key, masterSalt: salt, direction: .outbound),
            let receiver = LibSrtpSession(profile: profile, masterKey: key, masterSalt: salt, direction: .inbound)
        else { return nil }
        let stride = packetSize + LibSrtpSession.maxTrailer
        var buffer = [UInt8](repeating: 0, count: stride * batch)
        var lengths = [Int](repeating: 0, count: batch)
        var packet = BenchPacket.rtp(size: packetSize, sequence: 0)
        var protect = Stopwatch()
        var unprotect = Stopwatch()
        var sequence: UInt16 = 0
        var failures = 0
        buffer.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            for _ in 0..<(packets / batch) {
                protect.start()
                for slot in 0..<batch {
                    BenchPacket.setSequence(sequence, in: &packet)
                    sequence &+= 1
                    let at = base + slot * stride
                    packet.withUnsafeBytes {
                        UnsafeMutableRawBufferPointer(start: at, count: packetSize).copyMemory(from: $0)
                    }
                    lengths[slot] = sender.protect(at, length: packetSize) ?? 0
                }
                protect.stop()
                unprotect.start()
                for slot in 0..<batch where receiver.unprotect(base + slot * stride, length: lengths[slot]) != packetSize {
                    failures += 1
                }
                unprotect.stop()
            }
        }
        guard failures == 0 else { throw BenchmarkError("libsrtp2: \(failures) packets failed to unprotect") }
        return (protect, unprotect)
    }
}
