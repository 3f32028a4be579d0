import COpenSSL
import Net

/// A self-signed P-256 certificate for `localhost` and 127.0.0.1, made with OpenSSL.
final class TestCertificate {
    let key: OpaquePointer
    let certificate: OpaquePointer

    init(commonName: String = "localhost", altNames: String = "DNS:localhost,IP:127.0.0.1") {
        let keyContext = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil)
        defer { EVP_PKEY_CTX_free(keyContext) }
        var generated: OpaquePointer?
        precondition(EVP_PKEY_keygen_init(keyContext) == 1
                     && EVP_PKEY_CTX_set_ec_paramgen_curve_nid(keyContext, NID_X9_62_prime256v1) == 1
                     && EVP_PKEY_keygen(keyContext, &generated) == 1)
        key = generated!
        certificate = X509_new()
        X509_set_version(certificate, 2)
        ASN1_INTEGER_set(X509_get_serialNumber(certificate), 1)
        X509_gmtime_adj(X509_getm_notBefore(certificate), -3600)
        X509_gmtime_adj(X509_getm_notAfter(certificate), 86400)
        X509_set_pubkey(certificate, key)
        let name = X509_get_subject_name(certificate)
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0)
        X509_set_issuer_name(certificate, name)
        let san = X509V3_EXT_conf_nid(nil, nil, NID_subject_alt_name, altNames)
        X509_add_ext(certificate, san, -1)
        X509_EXTENSION_free(san)
        precondition(X509_sign(certificate, key, EVP_sha256()) > 0)
    }

    deinit {
        X509_free(certificate)
        EVP_PKEY_free(key)
    }

    var pem: String {
        let bio = BIO_new(BIO_s_mem())
        defer { BIO_free(bio) }
        PEM_write_bio_X509(bio, certificate)
        var out = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        _ = out.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The server end of a TLS connection over memory BIOs, for driving the client in tests.
final class TestTLSServer {
    let context: OpaquePointer
    let ssl: OpaquePointer
    let incoming: OpaquePointer
    let outgoing: OpaquePointer
    var received: [UInt8] = []
    var sawCloseNotify = false

    init(certificate: TestCertificate) {
        context = SSL_CTX_new(TLS_server_method())
        SSL_CTX_use_certificate(context, certificate.certificate)
        SSL_CTX_use_PrivateKey(context, certificate.key)
        ssl = SSL_new(context)
        incoming = BIO_new(BIO_s_mem())
        outgoing = BIO_new(BIO_s_mem())
        _ = rs_bio_set_mem_eof_return(incoming, -1)
        SSL_set_bio(ssl, incoming, outgoing)
        SSL_set_accept_state(ssl)
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    /// The SNI name the client sent.
    var serverName: String? { SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name).map { String(cString: $0) } }

    func handle(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { BIO_write(incoming, $0.baseAddress, Int32($0.count)) }
        if SSL_is_init_finished(ssl) == 0 { _ = SSL_do_handshake(ssl) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                received += buffer.prefix(Int(count))
            } else {
                if SSL_get_error(ssl, count) == SSL_ERROR_ZERO_RETURN { sawCloseNotify = true }
                break
            }
        }
        ERR_clear_error()
    }

    func send(_ plaintext: [UInt8]) {
        _ = plaintext.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
    }

    func close() { _ = SSL_shutdown(ssl) }

    func pollTransmit() -> [UInt8]? {
        let pending = Int(BIO_ctrl_pending(outgoing))
        guard pending > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: pending)
        _ = out.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32(pending)) }
        return out
    }
}
