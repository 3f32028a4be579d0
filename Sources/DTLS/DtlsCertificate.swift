import COpenSSL

/// The process-wide DTLS identity: an ECDSA P-256 key and a self-signed certificate,
/// generated once and shared by every peer (WebRTC peers authenticate each other by the
/// certificate fingerprint in SDP, RFC 8842 5, not by a CA).
///
/// The OpenSSL `SSL_CTX` built on it is shared too: every `DtlsEndpoint` is an `SSL`
/// from this context, so a thousand peers hold one certificate and one context.
public final class DtlsCertificate: @unchecked Sendable {
    // @unchecked: the key, certificate and context are never modified after init, and
    // OpenSSL allows concurrent SSL_new on one SSL_CTX.

    /// The certificate every peer of this process uses, generated on first use.
    public static let shared = DtlsCertificate()

    /// "sha-256 AB:CD:...", for the `a=fingerprint` line of local SDP.
    public let fingerprint: String

    let context: OpaquePointer
    private let key: OpaquePointer
    private let certificate: OpaquePointer

    /// Generates a fresh key pair and certificate. Most callers want `shared`; tests make
    /// a second one to see a fingerprint mismatch.
    public init() {
        key = DtlsCertificate.generateKey()
        certificate = DtlsCertificate.selfSign(key)
        fingerprint = DtlsFingerprint(certificate: certificate).description
        context = DtlsCertificate.makeContext(certificate: certificate, key: key)
    }

    deinit {
        SSL_CTX_free(context)
        X509_free(certificate)
        EVP_PKEY_free(key)
    }

    private static func generateKey() -> OpaquePointer {
        var key: OpaquePointer?
        guard let generator = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { fatalError("OpenSSL: no EC") }
        defer { EVP_PKEY_CTX_free(generator) }
        guard EVP_PKEY_keygen_init(generator) == 1, EVP_PKEY_CTX_set_group_name(generator, "P-256") == 1,
            EVP_PKEY_generate(generator, &key) == 1, let key
        else { fatalError("OpenSSL: P-256 key generation failed") }
        return key
    }

    /// A version 3 certificate, CN=rtcswarm, valid from a day ago for 30 days (the only
    /// wall-clock read here: OpenSSL stamps the validity period).
    private static func selfSign(_ key: OpaquePointer) -> OpaquePointer {
        guard let certificate = X509_new() else { fatalError("OpenSSL: out of memory") }
        var serial = [UInt8](repeating: 0, count: 8)
        _ = RAND_bytes(&serial, Int32(serial.count))
        let serialNumber = serial.reduce(0) { $0 << 8 | Int($1) } & Int(Int32.max)
        let name = X509_get_subject_name(certificate)
        let ok =
            X509_set_version(certificate, 2) == 1
            && ASN1_INTEGER_set(X509_get_serialNumber(certificate), serialNumber) == 1
            && X509_gmtime_adj(X509_getm_notBefore(certificate), -86_400) != nil
            && X509_gmtime_adj(X509_getm_notAfter(certificate), 30 * 86_400) != nil
            && X509_set_pubkey(certificate, key) == 1
            && X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, "rtcswarm", -1, -1, 0) == 1
            && X509_set_issuer_name(certificate, name) == 1
            && X509_sign(certificate, key, EVP_sha256()) > 0
        guard ok else { fatalError("OpenSSL: self-signing the DTLS certificate failed") }
        return certificate
    }

    /// DTLS 1.2 with the certificate, ECDHE with AES-GCM only, peer certificates required
    /// (their fingerprint is checked by `DtlsEndpoint`), and the use_srtp extension
    /// offering AES-GCM first (RFC 5764 4.1.1, RFC 7714 14.2).
    private static func makeContext(certificate: OpaquePointer, key: OpaquePointer) -> OpaquePointer {
        guard let context = SSL_CTX_new(DTLS_method()) else { fatalError("OpenSSL: no DTLS") }
        let ok =
            SSL_CTX_use_certificate(context, certificate) == 1
            && SSL_CTX_use_PrivateKey(context, key) == 1
            && rs_ssl_ctx_set_min_version(context, DTLS1_2_VERSION) == 1
            && SSL_CTX_set_cipher_list(context, DtlsRecordFilter.cipherSuites) == 1
            && SSL_CTX_set_tlsext_use_srtp(context, DtlsSrtpProfile.offered) == 0
        guard ok else { fatalError("OpenSSL: DTLS context setup failed") }
        // No record is larger than the link MTU; this shrinks each write buffer.
        _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_MAX_SEND_FRAGMENT, DtlsEndpoint.mtu, nil)
        // Read and write buffers are freed while idle: after the handshake a peer's DTLS
        // object only wakes for close_notify, so thousands of peers do not each hold them.
        _ = rs_ssl_ctx_set_mode(context, Int(SSL_MODE_RELEASE_BUFFERS))
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, DtlsEndpoint.verifyCallback)
        return context
    }
}
