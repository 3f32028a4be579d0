import RTCBase

/// A signaling target: `http`, `https`, `ws` or `wss` URL (RFC 3986 section 3) reduced to
/// what a client needs to connect and send a request line.
///
/// The host is kept without brackets (`::1`, not `[::1]`); the port is filled in with the
/// scheme's default; the path keeps its percent-encoding and is `/` when empty; a fragment
/// is dropped. User information (`user@host`) is refused rather than silently sent.
public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    /// The schemes rtcswarm connects to.
    public enum Scheme: String, Hashable, Sendable {
        case http, https, ws, wss
        /// A bare TCP stream (`tcp-p2p` signaling); it has no default port.
        case tcp

        /// 80 for `http`/`ws`, 443 for `https`/`wss`, none (0) for `tcp`.
        public var defaultPort: UInt16 { self == .tcp ? 0 : isSecure ? 443 : 80 }
        /// Whether the connection runs over TLS.
        public var isSecure: Bool { self == .https || self == .wss }
    }

    public var scheme: Scheme
    /// Host name or IP literal, lowercased, IPv6 without brackets.
    public var host: String
    public var port: UInt16
    /// Percent-encoded path, starting with `/`.
    public var path: String
    /// Percent-encoded query without the `?`, or nil when the URL had none.
    public var query: String?

    public init(scheme: Scheme, host: String, port: UInt16? = nil, path: String = "/", query: String? = nil) {
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port ?? scheme.defaultPort
        self.path = path.isEmpty ? "/" : path
        self.query = query
    }

    /// Parses an absolute URL such as `https://[::1]:8443/rtc/v1/whip/?app=live&stream=a`.
    public init(parsing text: String) throws(ParseError) {
        guard let schemeEnd = text.firstRange(of: "://") else { throw .invalid("URL \(text): no scheme") }
        guard let scheme = Scheme(rawValue: text[..<schemeEnd.lowerBound].lowercased()) else {
            throw .invalid("URL \(text): scheme must be http, https, ws, wss or tcp")
        }
        var rest = text[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var tail = rest[authorityEnd...]
        guard !authority.contains("@") else { throw .invalid("URL \(text): user information is not supported") }

        let (host, port) = try Endpoint.splitAuthority(authority, in: text)
        var query: String?
        if let mark = tail.firstIndex(of: "?") {
            query = String(tail[tail.index(after: mark)...])
            tail = tail[..<mark]
        }
        guard tail.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }), query?.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) ?? true else {
            throw .invalid("URL \(text): spaces or non-ASCII characters must be percent-encoded")
        }
        self.init(scheme: scheme, host: host, port: port, path: String(tail), query: query)
    }

    private static func splitAuthority(_ authority: Substring, in text: String) throws(ParseError) -> (String, UInt16?) {
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalid("URL \(text): unclosed [ in host") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalid("URL \(text): junk after ]") }
                portText = after.dropFirst()
            }
            guard SocketAddress(host: String(host), port: 0)?.family == .ipv6 else {
                throw .invalid("URL \(text): [\(host)] is not an IPv6 address")
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            } else {
                host = authority
            }
            let allowed = host.utf8.allSatisfy { PercentEncoding.isUnreserved($0) && $0 != UInt8(ascii: "~") }
            guard allowed else { throw .invalid("URL \(text): bad character in host \(host)") }
        }
        guard !host.isEmpty else { throw .invalid("URL \(text): empty host") }
        guard let portText, !portText.isEmpty else { return (String(host), nil) }
        guard portText.allSatisfy(\.isASCII), let port = UInt16(portText), port != 0 else {
            throw .invalid("URL \(text): port \(portText) is not in 1...65535")
        }
        return (String(host), port)
    }

    /// Path and query as sent in a request line (RFC 9112 section 3.2.1, origin-form).
    public var requestTarget: String {
        guard let query else { return path }
        return path + "?" + query
    }

    /// The `Host` header value: the host (bracketed if IPv6) and the port unless default.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == scheme.defaultPort ? name : "\(name):\(port)"
    }

    /// The URL that `reference` names relative to this one (RFC 3986 section 5.2, for
    /// the forms servers put in `Location`): absolute URLs, `//host/...`, `/path`,
    /// `?query` and relative paths.
    public func resolving(_ reference: String) throws(ParseError) -> Endpoint {
        if reference.contains("://") { return try Endpoint(parsing: reference) }
        if reference.hasPrefix("//") { return try Endpoint(parsing: scheme.rawValue + ":" + reference) }
        var base = self
        var ref = Substring(reference)
        if let hash = ref.firstIndex(of: "#") { ref = ref[..<hash] }
        if ref.isEmpty { return base }
        if ref.hasPrefix("?") {
            base.query = String(ref.dropFirst())
            return base
        }
        var newQuery: String?
        if let mark = ref.firstIndex(of: "?") {
            newQuery = String(ref[ref.index(after: mark)...])
            ref = ref[..<mark]
        }
        if ref.hasPrefix("/") {
            base.path = Endpoint.removingDotSegments(String(ref))
        } else {
            let directory = path[...(path.lastIndex(of: "/") ?? path.startIndex)]
            base.path = Endpoint.removingDotSegments(String(directory) + String(ref))
        }
        base.query = newQuery
        return base
    }

    /// RFC 3986 section 5.2.4 for the common cases: drops `.` and resolves `..`.
    static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            if part == "." {
                if isLast { output.append("") }
            } else if part == ".." {
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            } else {
                output.append(part)
            }
        }
        return "/" + output.joined(separator: "/")
    }

    public var description: String { "\(scheme.rawValue)://\(hostHeader)\(requestTarget)" }
}
