#if canImport(Glibc)
import Glibc
#endif
import Net
import RTCBase

/// Where a URL's server is: the socket address to connect to and the endpoint that names
/// it in requests.
public struct ResolvedTarget: Sendable, Equatable {
    public var address: SocketAddress
    public var endpoint: Endpoint
}

/// A target URL that cannot be used, in words a user can act on.
public struct TargetError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

public enum TargetResolver {
    /// Parses `url` and resolves its host (an IP literal, `localhost`, or a name through
    /// the system resolver) to an address.
    public static func resolve(_ url: String) throws(TargetError) -> ResolvedTarget {
        let endpoint: Endpoint
        do {
            endpoint = try Endpoint(parsing: url)
        } catch {
            throw TargetError("\(url) is not a usable URL: \(error)")
        }
        return ResolvedTarget(address: try resolve(host: endpoint.host, port: endpoint.port, in: url), endpoint: endpoint)
    }

    /// Resolves a host (an IP literal, bracketed or not, `localhost`, or a name through the
    /// system resolver) and a port to an address; `url` names where it came from in errors.
    public static func resolve(host name: String, port: UInt16, in url: String? = nil) throws(TargetError) -> SocketAddress {
        let host = name.hasPrefix("[") ? String(name.dropFirst().dropLast()) : name
        let context = url.map { " in \($0)" } ?? ""
        if let literal = SocketAddress(host: host, port: port) { return literal }
        if host == "localhost" { return SocketAddress(ipv4: 127, 0, 0, 1, port: port) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &results)
        defer { if let results { freeaddrinfo(results) } }
        guard status == 0, let first = results, let raw = first.pointee.ai_addr else {
            throw TargetError("cannot resolve \(host)\(context): \(String(cString: gai_strerror(status)))")
        }
        let address: SocketAddress?
        if Int32(raw.pointee.sa_family) == AF_INET {
            address = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                withUnsafeBytes(of: v4.pointee.sin_addr) { SocketAddress(bytes: $0, port: port) }
            }
        } else {
            address = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                withUnsafeBytes(of: v6.pointee.sin6_addr) { SocketAddress(bytes: $0, port: port) }
            }
        }
        guard let address else { throw TargetError("\(host) resolved to an address family rtcswarm does not use") }
        return address
    }
}
