import CSRTP
import SRTP

/// libsrtp2, the reference SRTP implementation, as the oracle the tests check rtcswarm's
/// `SrtpContext` against. One session protects (outbound) or unprotects (inbound).
final class LibSrtp {
    enum Direction { case outbound, inbound }

    private static let initialised: Bool = srtp_init() == srtp_err_status_ok

    private var session: srtp_t?

    /// Nil when libsrtp refuses the profile (for example a build without GCM).
    init?(profile: SrtpProfile, masterKey: [UInt8], masterSalt: [UInt8], direction: Direction) {
        guard LibSrtp.initialised else { return nil }
        let libProfile: srtp_profile_t = switch profile {
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
        let created = key.withUnsafeMutableBufferPointer { key in
            policy.key = key.baseAddress
            return srtp_create(&session, &policy)
        }
        guard created == srtp_err_status_ok else { return nil }
    }

    deinit { if let session { srtp_dealloc(session) } }

    func protectRtp(_ packet: [UInt8]) -> [UInt8]? { run(packet, srtp_protect) }
    func unprotectRtp(_ packet: [UInt8]) -> [UInt8]? { run(packet, srtp_unprotect) }
    func protectRtcp(_ packet: [UInt8]) -> [UInt8]? { run(packet, srtp_protect_rtcp) }
    func unprotectRtcp(_ packet: [UInt8]) -> [UInt8]? { run(packet, srtp_unprotect_rtcp) }

    private func run(
        _ packet: [UInt8], _ operation: (srtp_t?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int32>?) -> srtp_err_status_t
    ) -> [UInt8]? {
        var buffer = packet + [UInt8](repeating: 0, count: Int(SRTP_MAX_TRAILER_LEN) + 4)
        var length = Int32(packet.count)
        let status = buffer.withUnsafeMutableBytes { operation(session, $0.baseAddress, &length) }
        return status == srtp_err_status_ok ? Array(buffer[..<Int(length)]) : nil
    }
}
