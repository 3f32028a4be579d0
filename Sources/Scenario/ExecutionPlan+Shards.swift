/// How a scenario is cut into shards. The unsharded plan is computed as always and each
/// shard keeps a deterministic part of it, so the shards' plans together are exactly the
/// whole plan: the same peers, ids, rooms, streams and start times. A fixed arrival rate
/// is thereby divided by N per shard and a stage's target level is spread so that the
/// shards' levels add up to it.
///
/// The part is made of units that must stay on one machine, dealt round-robin in the
/// order they first appear in the plan (group by group, earliest first):
/// - a call (a pair's two ends, or a room of members): they talk through one room server,
///   which with `builtin-room` is the shard's own;
/// - with `stream.per_publisher`, a publisher and the players of its stream (so latency is
///   measured on one clock, SenderDirectory);
/// - otherwise each publisher, player or echo peer alone (players of a shared stream are
///   spread over shards as they are over workers).
extension ExecutionPlan {
    struct ShardDealer {
        let shard: Shard
        private var shardOfUnit: [String: Int] = [:]

        init(shard: Shard) { self.shard = shard }

        /// Whether this shard runs the peer; the first peer of a unit decides its shard.
        mutating func takes(_ peer: Peer, perPublisher: Bool) -> Bool {
            guard shard.count > 1 else { return true }
            let unit = Self.unit(of: peer, perPublisher: perPublisher)
            if let known = shardOfUnit[unit] { return known == shard.index }
            let dealt = shardOfUnit.count % shard.count
            shardOfUnit[unit] = dealt
            return dealt == shard.index
        }

        static func unit(of peer: Peer, perPublisher: Bool) -> String {
            if let room = peer.room { return "room \(room)" }
            if perPublisher, let stream = peer.stream { return "stream \(stream)" }
            return "peer g\(peer.group)-\(peer.index)"
        }
    }
}
