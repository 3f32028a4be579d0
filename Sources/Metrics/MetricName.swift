/// The figures rtcswarm reports, by the names of METRICS.md ("Names used in reports and
/// thresholds"), each with its kind.
public enum MetricName: String, CaseIterable, Hashable, Sendable, Codable, CodingKeyRepresentable {
    // Per peer, milliseconds (METRICS.md "Connection setup").
    case setupMs = "setup_ms"
    case signalingMs = "signaling_ms"
    case iceMs = "ice_ms"
    case dtlsMs = "dtls_ms"
    case firstPacketMs = "first_packet_ms"
    case firstFrameMs = "first_frame_ms"
    case partnerWaitMs = "partner_wait_ms"
    // Per received stream, video and audio apart (Opus gets no NACK: its loss stays).
    case videoLossPct = "video.loss_pct"
    case audioLossPct = "audio.loss_pct"
    case videoResidualLossPct = "video.residual_loss_pct"
    case audioResidualLossPct = "audio.residual_loss_pct"
    case videoBurstMax = "video.burst_max"
    case audioBurstMax = "audio.burst_max"
    case videoJitterMs = "video.jitter_ms"
    case audioJitterMs = "audio.jitter_ms"
    case videoJitterMaxMs = "video.jitter_max_ms"
    case audioJitterMaxMs = "audio.jitter_max_ms"
    case videoLossEpisodes = "video.loss_episodes"
    case audioLossEpisodes = "audio.loss_episodes"
    case videoFrameLossPct = "video.frame_loss_pct"
    // Per received video stream.
    case fps
    case freezeCount = "freeze_count"
    case freezeMs = "freeze_ms"
    /// Freezes that coincided with the receiving worker's own event-loop stall.
    case harnessFreezeCount = "harness_freeze_count"
    case resolutionSurvival = "resolution_survival"
    /// Video frames whose picture size was never read (before the first readable header).
    case framesUnknownSize = "frames_unknown_size"
    /// From a timeline `video.resolution` to the first frame of the new size at a receiver.
    case switchMs = "switch_ms"
    /// Switches whose new size never arrived at a receiver.
    case switchesMissed = "switches_missed"
    /// From a timeline unmute to the first packet, and to the first frame showing the
    /// track again (video: a keyframe), at a receiver.
    case unmuteFirstPacketMs = "unmute_first_packet_ms"
    case unmuteFirstFrameMs = "unmute_first_frame_ms"
    /// Frames a receiver got inside a planned "stop" mute (the server replayed, or the mute failed).
    case framesWhileMuted = "frames_while_muted"
    /// Around a switch (from the action to a second after the first new-size frame): the
    /// longest gap between frames, and the frames sent then that never arrived.
    case switchFreezeMs = "switch_freeze_ms"
    case switchFramesLost = "switch_frames_lost"
    /// From a timeline `ice.restart` to a pair selected with the new credentials, each side
    /// of the call; and the packets its received streams lost meanwhile.
    case iceRestartMs = "ice_restart_ms"
    case iceRestartLostPackets = "ice_restart_lost_packets"
    case latencyMs = "latency_ms"
    case psnrDb = "psnr_db"
    /// SSIM (Y) of a decoded stream: its mean, and its 5th-percentile frame.
    case ssim
    case ssimP5 = "ssim_p5"
    /// A decoded (sampled) Opus stream played out: 20 ms frames concealed (their packet
    /// never came in time), and the percent of frames played that sound as sent.
    case audioConcealedFrames = "audio_concealed_frames"
    case audioMarkerHitPct = "audio_marker_hit_pct"
    case rttMs = "rtt_ms"
    case nacks
    case plis
    // Peers and rooms.
    case failedPeers = "failed_peers"
    case connectedPeers = "connected_peers"
    case joinMs = "join_ms"
    /// OWT conference steps (the portal's acks).
    case loginMs = "login_ms"
    case publishAckMs = "publish_ack_ms"
    case subscribeAckMs = "subscribe_ack_ms"
    case relayMs = "relay_ms"
    /// OWT notifications (`ConferenceNotifications`): from a publication's `ready` to another
    /// participant's `stream add`; from a login or logout to another's `participant join` or
    /// `leave`; and how many of those the participants should have got, got, and missed.
    case streamNotifyMs = "stream_notify_ms"
    case participantNotifyMs = "participant_notify_ms"
    case notificationsExpected = "notifications_expected"
    case notificationsReceived = "notifications_received"
    case notificationsLost = "notifications_lost"
    /// Room messages (role `member`, `RoomMessageCounts`): sent, copies the server relayed,
    /// copies received, and lost and duplicated by the senders' sequence numbers.
    case messagesSent = "messages_sent"
    case messagesRelayed = "messages_relayed"
    case messagesReceived = "messages_received"
    case messagesLost = "messages_lost"
    case messagesDuplicated = "messages_duplicated"
    /// Data channels (`groups[].data`, `DataChannelRecord`): open time, per-message latency,
    /// per channel throughput and loss, messages out of order, messages sent and received.
    case dcOpenMs = "dc_open_ms"
    case dcLatencyMs = "dc_latency_ms"
    case dcThroughputKbps = "dc_throughput_kbps"
    case dcLossPct = "dc_loss_pct"
    case dcReordered = "dc_reordered"
    case dcMessagesSent = "dc_messages_sent"
    case dcMessagesReceived = "dc_messages_received"
    // Per worker (the harness watching itself).
    case lagMs = "lag_ms"
    case cpuPct = "cpu_pct"
    case rssMb = "rss_mb"
    case socketDrops = "socket_drops"

    /// The names from before audio and video were apart, kept for the video figure
    /// (docs/metrics.md): `loss_pct.max < 1` in a scenario judges the video streams.
    public static let aliases: [String: MetricName] = [
        "loss_pct": .videoLossPct, "residual_loss_pct": .videoResidualLossPct, "burst_max": .videoBurstMax,
        "jitter_ms": .videoJitterMs, "jitter_max_ms": .videoJitterMaxMs, "loss_episodes": .videoLossEpisodes,
        "frame_loss_pct": .videoFrameLossPct,
    ]

    /// The figure a report or threshold names: its own name or an alias.
    public init?(named text: String) {
        guard let name = MetricName(rawValue: text) ?? Self.aliases[text] else { return nil }
        self = name
    }

    /// How a figure is kept and addressed.
    public enum Kind: Sendable {
        /// One value per peer, stream or sample, kept as a `Histogram`; addressed with a
        /// statistic (`setup_ms.p95`).
        case distribution
        /// A total over the run, kept as a `Counter`; addressed by its bare name.
        case counter
        /// A level, kept as a `Gauge` (merged by adding); addressed by its bare name.
        case gauge
    }

    public var kind: Kind {
        switch self {
        case .nacks, .plis, .failedPeers, .socketDrops, .framesUnknownSize, .switchesMissed, .framesWhileMuted, .messagesSent, .messagesRelayed,
             .messagesReceived, .messagesLost, .messagesDuplicated, .notificationsExpected, .notificationsReceived, .notificationsLost,
             .dcReordered, .dcMessagesSent, .dcMessagesReceived: .counter
        case .connectedPeers: .gauge
        default: .distribution
        }
    }
}

/// What a threshold reads from a distribution (METRICS.md: `.p50 .p95 .p99 .min .max .mean`).
public enum Statistic: String, CaseIterable, Hashable, Sendable, Codable {
    case p50, p95, p99, min, max, mean

    /// The figure from a histogram; nil when it is empty.
    public func value(of histogram: Histogram) -> Double? {
        switch self {
        case .p50: histogram.percentile(50)
        case .p95: histogram.percentile(95)
        case .p99: histogram.percentile(99)
        case .min: histogram.min
        case .max: histogram.max
        case .mean: histogram.mean
        }
    }
}
