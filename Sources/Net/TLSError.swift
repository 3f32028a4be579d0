import COpenSSL

/// Why a TLS connection failed, with OpenSSL's own words.
public struct TLSError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "TLS: \(message)" }

    /// The messages in OpenSSL's error queue, which is emptied.
    static func drainQueue(_ context: String) -> TLSError {
        var parts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            parts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return TLSError(parts.isEmpty ? context : "\(context): \(parts.joined(separator: "; "))")
    }
}
