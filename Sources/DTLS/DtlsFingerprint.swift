import COpenSSL
import RTCBase

/// A certificate fingerprint as SDP carries it in `a=fingerprint` (RFC 8122 5):
/// a hash function name and the digest as colon-separated hex, "sha-256 AB:CD:...".
public struct DtlsFingerprint: Hashable, Sendable, CustomStringConvertible {
    /// The hash function name in lower case ("sha-256").
    public let algorithm: String
    /// The digest bytes.
    public let digest: [UInt8]

    /// The hash functions RFC 8122 5 lists, by SDP name.
    static let algorithms = ["sha-1", "sha-224", "sha-256", "sha-384", "sha-512"]

    /// Parses the value of an `a=fingerprint` attribute.
    /// - Throws: `.unsupported` for an unknown hash, `.invalidValue` for bad hex or a
    ///   digest of the wrong length.
    public init(sdp value: String) throws(ParseError) {
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else { throw .invalid("fingerprint \"\(value)\": expected \"<hash> <hex>\"") }
        algorithm = parts[0].lowercased()
        guard let md = DtlsFingerprint.messageDigest(algorithm) else {
            throw ParseError(.unsupported, "fingerprint hash \(algorithm)")
        }
        var bytes: [UInt8] = []
        for pair in parts[1].split(separator: ":", omittingEmptySubsequences: false) {
            guard pair.count == 2, let byte = UInt8(pair, radix: 16) else {
                throw .invalid("fingerprint hex \"\(parts[1])\"")
            }
            bytes.append(byte)
        }
        guard bytes.count == Int(EVP_MD_get_size(md)) else {
            throw .invalid("fingerprint of \(bytes.count) bytes for \(algorithm)")
        }
        digest = bytes
    }

    /// The fingerprint of a DER certificate under `algorithm`.
    init(certificate: OpaquePointer, algorithm: String = "sha-256") {
        self.algorithm = algorithm
        let md = DtlsFingerprint.messageDigest(algorithm) ?? EVP_sha256()
        var buffer = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(certificate, md, &buffer, &length) == 1 else { fatalError("OpenSSL: X509_digest failed") }
        digest = Array(buffer[..<Int(length)])
    }

    /// "sha-256 AB:CD:...", the form SDP carries.
    public var description: String {
        algorithm + " " + digest.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    static func messageDigest(_ algorithm: String) -> OpaquePointer? {
        switch algorithm {
        case "sha-1": EVP_sha1()
        case "sha-224": EVP_sha224()
        case "sha-256": EVP_sha256()
        case "sha-384": EVP_sha384()
        case "sha-512": EVP_sha512()
        default: nil
        }
    }
}
