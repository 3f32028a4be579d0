/// How TLS clients check servers.
public struct TLSConfiguration: Hashable, Sendable {
    /// Check the server's certificate chain and name (on by default). Turn off only for
    /// self-signed test servers.
    public var verifyCertificates: Bool
    /// PEM certificates trusted in addition to the system store (e.g. a test CA).
    public var additionalTrustedPEM: String?

    public init(verifyCertificates: Bool = true, additionalTrustedPEM: String? = nil) {
        self.verifyCertificates = verifyCertificates
        self.additionalTrustedPEM = additionalTrustedPEM
    }
}
