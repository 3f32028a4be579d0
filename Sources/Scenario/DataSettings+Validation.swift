extension Target {
    /// The roles whose peers carry data channels on this target: rtcswarm's own pairs
    /// (through a room server or straight over TCP); on Janus, the EchoTest's echo peers (it
    /// returns every message on its channel) and the VideoRoom's publishers and players (it
    /// relays a publisher's messages to its subscribers). None where none can: SRS carries
    /// no data channels at all; the other servers' are not driven from a scenario.
    public var dataChannelRoles: [PeerGroup.Role] {
        switch kind {
        case .builtinRoom, .room, .tcpP2P: [.pair]
        case .janus: janus?.plugin == .echotest ? [.echo] : [.publisher, .player]
        case .srs, .whip, .whep, .owt: []
        }
    }
}

extension DataSettings {
    /// Stream ids a negotiated channel may take (the association's 1024 streams).
    public static let negotiatedIds = 0...1023
    public static let sizes = DataMessageSettings.minimumSize...65_536
    /// Janus relays a data channel message with a 16-bit length (its plugin API).
    public static let janusLargestMessage = 65_535

    func validate(path: String, group: PeerGroup, target: Target) throws(ScenarioError) {
        let roles = target.dataChannelRoles
        guard !roles.isEmpty else {
            throw ScenarioError(path: path, "target kind \"\(target.kind.rawValue)\" cannot carry data channels; use builtin-room, "
                                + "room or tcp-p2p (pairs), or janus (EchoTest echo peers, VideoRoom publishers and players)")
        }
        try check(roles.contains(group.role), path, roles == [.pair]
                  ? "data channels are opened by pairs; \"\(group.role.rawValue)\" peers cannot open them"
                  : "on this Janus plugin \(roles.map { "\"\($0.rawValue)\"" }.joined(separator: " and ")) peers carry data channels; "
                    + "\"\(group.role.rawValue)\" peers cannot")
        if target.kind == .janus {
            if group.role == .echo {
                try check((message?.pattern ?? .echo) == .echo, "\(path).message.pattern", "Janus's EchoTest returns every message: use \"echo\"")
            } else {
                if group.role == .publisher {
                    try check(message?.pattern == .oneWay, "\(path).message.pattern",
                              "Janus's VideoRoom relays a publisher's messages to its players and returns none: use \"one_way\"")
                }
                try check(channels.count == 1, "\(path).channels",
                          "\(channels.count) channels: Janus's VideoRoom relays a publisher's messages on one channel named after it; give 1")
            }
            try check((message?.sizeBytes ?? 0) <= Self.janusLargestMessage, "\(path).message.size_bytes",
                      "\(message?.sizeBytes ?? 0) is more than Janus relays (\(Self.janusLargestMessage) B, a 16-bit length)")
        }
        try check((1...16).contains(channels.count), "\(path).channels", "\(channels.count) channels: give 1 to 16")
        var labels: Set<String> = [], ids: Set<Int> = []
        for (index, channel) in channels.enumerated() {
            let at = "\(path).channels[\(index)]"
            try check(!channel.label.isEmpty && channel.label.utf8.count <= 1024, "\(at).label", "must be 1 to 1024 bytes long")
            try check(labels.insert(channel.label).inserted, "\(at).label", "\"\(channel.label)\" is used by another channel; labels must differ")
            try check(channel.maxRetransmits == nil || channel.maxPacketLifeMs == nil, at,
                      "max_retransmits and max_packet_life_ms both set; a channel takes at most one (RFC 8831 6.1)")
            if let count = channel.maxRetransmits {
                try check((0...65_535).contains(count), "\(at).max_retransmits", "\(count) must be from 0 to 65535")
            }
            if let life = channel.maxPacketLifeMs {
                try check((0...65_535).contains(life), "\(at).max_packet_life_ms", "\(life) must be from 0 to 65535")
            }
            if let id = channel.negotiatedId {
                try check(Self.negotiatedIds.contains(id), "\(at).negotiated_id", "\(id) must be from 0 to 1023")
                try check(ids.insert(id).inserted, "\(at).negotiated_id", "\(id) is used by another channel; ids must differ")
            }
        }
        guard let message else { return }
        if let size = message.sizeBytes {
            try check(Self.sizes.contains(size), "\(path).message.size_bytes",
                      "\(size) must be from \(Self.sizes.lowerBound) (the sequence number and send time) to \(Self.sizes.upperBound)")
        }
        if let rate = message.ratePerS {
            try check(rate > 0 && rate <= 10_000, "\(path).message.rate_per_s", "\(formatNumber(rate)) must be more than 0 and at most 10000")
        }
        if message.pattern == .burst {
            try check(message.burstSize != nil, "\(path).message.burst_size", "required for pattern \"burst\": messages sent at once, 2 to 10000")
            if let size = message.burstSize {
                try check((2...10_000).contains(size), "\(path).message.burst_size", "\(size) must be from 2 to 10000")
            }
        } else {
            try check(message.burstSize == nil, "\(path).message.burst_size",
                      "only for pattern \"burst\" (the pattern is \"\((message.pattern ?? .echo).rawValue)\"); remove it")
        }
    }
}
