import CSRTP
import SRTP

/// One libsrtp2 session, the reference implementation: the oracle the SRTP tests check
/// `SrtpContext` against bit for bit, and the baseline the SRTP benchmark compares its
/// cost with. It protects (outbound) or unprotects (inbound).
public final class LibSrtpSession {
    public enum Direction { case outbound, inbound }

    /// Room libsrtp may append to a packet: its tag and MKI.
    public static let maxTrailer = Int(SRTP_MAX_TRAILER_LEN)

    /// `srtp_init` may run once per process; a second call fails.
    private static let initialised: Bool = srtp_init() == srtp_err_status_ok

    private var session: srtp_t?

    /// Nil when libsrtp refuses the profile (a build without GCM, say).
    public init?(profile: SrtpProfile, masterKey: [UInt8], masterSalt: [UInt8], direction: Direction) {
        guard LibSrtpSession.initialised else { return nil }
        let libProfile: srtp_profile_t =
            switch profile {
            case .aesCm128HmacSha1_80: srtp_profile_aes128_cm_sha1_80
            case .aesCm128HmacSha1_32: srtp_profile_aes128_cm_sha1_32
            case .aeadAes128Gcm: srtp_profile_aead_aes_128_gcm
            }
        var policy = srtp_policy_t()
        guard srtp_crypto_policy_set_from_profile_for_rtp(&policy.rtp, libProfile) == srtp_err_status_ok,
            srtp_crypto_policy_set_from_profile_for_rtcp(&policy.rtcp, libProfile) == srtp_err_status_ok
        else { return nil }
        policy.ssrc.type = direction == .outbound ? ssrc_any_outbound : ssrc_any_inbound
        policy.window_size = 128
        var key = masterKey + masterSalt
        let status = key.withUnsafeMutableBufferPointer { key in
            policy.key = key.baseAddress
            return srtp_create(&session, &policy)
        }
        guard status == srtp_err_status_ok else { return nil }
    }

    deinit { if let session { srtp_dealloc(session) } }

    /// Protects the `length` bytes at `packet` in place (room for `maxTrailer` more
    /// must follow); returns the new length, or nil on failure.
    public func protect(_ packet: UnsafeMutableRawPointer, length: Int) -> Int? {
        var length = Int32(length)
        return srtp_protect(session, packet, &length) == srtp_err_status_ok ? Int(length) : nil
    }

    /// Checks and decrypts in place; returns the RTP length, or nil on failure.
    public func unprotect(_ packet: UnsafeMutableRawPointer, length: Int) -> Int? {
        var length = Int32(length)
        return srtp_unprotect(session, packet, &length) == srtp_err_status_ok ? Int(length) : nil
    }

    public func protectRtp(_ packet: [UInt8]) -> [UInt8]? { run(packet, srtp_protect) }
    public func unprotectRtp(_ packet: [UInt8]) -> [UInt8]? { run(packet, srtp_unprotect) }
    public func protectRtcp(_ packet: [UInt8]) -> [UInt8]? { run(packet, srtp_protect_rtcp) }
    public func unprotectRtcp(_ packet: [UInt8]) -> [UInt8]? { run(packet, srtp_unprotect_rtcp) }

    /// Runs one libsrtp call on a copy with room for the trailer; nil when libsrtp refuses it.
    private func run(
        _ packet: [UInt8], _ operation: (srtp_t?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int32>?) -> srtp_err_status_t
    ) -> [UInt8]? {
        var buffer = packet + [UInt8](repeating: 0, count: Self.maxTrailer + 4)
        var length = Int32(packet.count)
        let status = buffer.withUnsafeMutableBytes { operation(session, $0.baseAddress, &length) }
        return status == srtp_err_status_ok ? Array(buffer[..<Int(length)]) : nil
    }
}
