import COpenSSL

/// An OpenSSL client context (`SSL_CTX`): TLS 1.2 or newer, the system trust store
/// loaded once, shared by every `TLSClientConnection` made from it.
///
/// A context is immutable after creation and OpenSSL allows sharing it between
/// threads, which is why it is `Sendable`.
public final class TLSClientContext: @unchecked Sendable {
    let context: OpaquePointer
    public let configuration: TLSConfiguration

    public init(configuration: TLSConfiguration = TLSConfiguration()) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw TLSError.drainQueue("SSL_CTX_new failed") }
        self.context = context
        self.configuration = configuration
        _ = rs_ssl_ctx_set_min_version(context, TLS1_2_VERSION)
        guard configuration.verifyCertificates else {
            SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
            return
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        guard SSL_CTX_set_default_verify_paths(context) == 1 else { throw TLSError.drainQueue("cannot load the system trust store") }
        if let pem = configuration.additionalTrustedPEM {
            try trust(pem)
        }
    }

    deinit { SSL_CTX_free(context) }

    private func trust(_ pem: String) throws(TLSError) {
        let bytes = Array(pem.utf8)
        let store = SSL_CTX_get_cert_store(context)
        var added = 0
        let bio = bytes.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
        defer { BIO_free(bio) }
        while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
            defer { X509_free(certificate) }
            guard X509_STORE_add_cert(store, certificate) == 1 else { throw TLSError.drainQueue("cannot trust certificate") }
            added += 1
        }
        ERR_clear_error()  // the loop ends on "no start line"
        guard added > 0 else { throw TLSError("additionalTrustedPEM holds no certificate") }
    }
}
