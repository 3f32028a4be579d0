import RTCBase

/// The type of an ICE candidate (RFC 8445 5.1.1), with its recommended type preference
/// (5.1.2.2).
public enum IceCandidateType: String, Hashable, Sendable {
    case host
    case srflx
    case prflx
    case relay

    /// Type preference: host 126, peer-reflexive 110, server-reflexive 100, relayed 0.
    public var preference: UInt32 {
        switch self {
        case .host: 126
        case .prflx: 110
        case .srflx: 100
        case .relay: 0
        }
    }
}

/// An ICE candidate (RFC 8445 5.1): one UDP transport address for component 1 (RTP and
/// RTCP share it: BUNDLE and rtcp-mux).
public struct IceCandidate: Hashable, Sendable, CustomStringConvertible {
    /// Equal for candidates of one type from one base through one server (5.1.1.3).
    public var foundation: String
    public var priority: UInt32
    /// The address the candidate is reached at.
    public var address: SocketAddress
    public var type: IceCandidateType
    /// For local candidates, the address checks are sent from (5.1.1.1): the host address
    /// for host and server-reflexive candidates. Equal to `address` for remote ones.
    public var base: SocketAddress
    /// raddr/rport in SDP: the base of a reflexive candidate, the mapped address of a relay.
    public var relatedAddress: SocketAddress?

    public init(foundation: String, priority: UInt32, address: SocketAddress, type: IceCandidateType,
                base: SocketAddress? = nil, relatedAddress: SocketAddress? = nil) {
        self.foundation = foundation
        self.priority = priority
        self.address = address
        self.type = type
        self.base = base ?? address
        self.relatedAddress = relatedAddress
    }

    /// A remote candidate as signalled (trickled or in the SDP).
    public static func remote(_ address: SocketAddress, type: IceCandidateType = .host, priority: UInt32? = nil,
                              foundation: String = "1") -> IceCandidate {
        IceCandidate(foundation: foundation, priority: priority ?? Self.priority(type: type), address: address, type: type)
    }

    /// Candidate priority (RFC 8445 5.1.2.1):
    /// 2^24 * type preference + 2^8 * local preference + (256 - component ID).
    public static func priority(type: IceCandidateType, localPreference: UInt16 = 65535, component: UInt8 = 1) -> UInt32 {
        type.preference << 24 | UInt32(localPreference) << 8 | (256 - UInt32(component))
    }

    /// A foundation from what 5.1.1.3 says must be equal for equal foundations: type,
    /// base IP address and the STUN/TURN server's IP address (FNV-1a, in decimal).
    static func foundation(type: IceCandidateType, base: SocketAddress, server: SocketAddress?) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in Array(type.rawValue.utf8) + base.bytes + (server?.bytes ?? []) {
            hash = (hash ^ UInt32(byte)) &* 0x0100_0193
        }
        return String(hash)
    }

    /// Parses an SDP candidate-attribute value (RFC 8839 5.1), with or without the
    /// `candidate:` prefix. Only UDP candidates of component 1 are accepted (BUNDLE and
    /// rtcp-mux); nil for anything else or anything malformed.
    public init?(sdp text: String) {
        var fields = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if let first = fields.first, first.hasPrefix("candidate:") { fields[0] = String(first.dropFirst("candidate:".count)) }
        guard fields.count >= 8, fields[1] == "1", fields[2].lowercased() == "udp", fields[6] == "typ",
              !fields[0].isEmpty, fields[0].count <= 32,
              let priority = UInt32(fields[3]), let port = UInt16(fields[5]),
              let address = SocketAddress(host: fields[4], port: port),
              let type = IceCandidateType(rawValue: fields[7])
        else { return nil }
        // Extension fields come as name-value pairs: raddr and rport matter, others are skipped.
        var extensions: [String: String] = [:]
        for index in stride(from: 8, to: fields.count - 1, by: 2) { extensions[fields[index]] = fields[index + 1] }
        let related = extensions["raddr"].flatMap { host in
            extensions["rport"].flatMap(UInt16.init).flatMap { SocketAddress(host: host, port: $0) }
        }
        self.init(foundation: fields[0], priority: priority, address: address, type: type, relatedAddress: related)
    }

    /// The SDP candidate-attribute value (RFC 8839 5.1) without the `candidate:` prefix.
    public var description: String {
        var text = "\(foundation) 1 udp \(priority) \(address.host) \(address.port) typ \(type.rawValue)"
        if let relatedAddress { text += " raddr \(relatedAddress.host) rport \(relatedAddress.port)" }
        return text
    }
}
