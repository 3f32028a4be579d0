import Metrics

/// The figures a summary shows, in order, for every cell that has them.
enum SummaryRows {
    static let addresses: [MetricAddress] = [
        MetricAddress(.connectedPeers), MetricAddress(.failedPeers),
        MetricAddress(.setupMs, .p50), MetricAddress(.setupMs, .p95), MetricAddress(.setupMs, .p99),
        MetricAddress(.signalingMs, .p95), MetricAddress(.iceMs, .p95), MetricAddress(.dtlsMs, .p95),
        MetricAddress(.firstFrameMs, .p95),
        MetricAddress(.videoLossPct, .mean), MetricAddress(.videoLossPct, .max), MetricAddress(.videoResidualLossPct, .max),
        MetricAddress(.videoBurstMax, .max), MetricAddress(.videoJitterMs, .mean), MetricAddress(.videoJitterMs, .max),
        MetricAddress(.audioLossPct, .mean), MetricAddress(.audioLossPct, .max), MetricAddress(.audioResidualLossPct, .max),
        MetricAddress(.audioBurstMax, .max), MetricAddress(.audioJitterMs, .mean), MetricAddress(.audioJitterMs, .max),
        MetricAddress(.videoFrameLossPct, .max), MetricAddress(.fps, .mean), MetricAddress(.freezeCount, .max),
        MetricAddress(.harnessFreezeCount, .max),
        MetricAddress(.resolutionSurvival, .min),
        MetricAddress(.switchMs, .p50), MetricAddress(.switchMs, .p95), MetricAddress(.switchMs, .max), MetricAddress(.switchesMissed),
        MetricAddress(.switchFreezeMs, .max), MetricAddress(.switchFramesLost, .max),
        MetricAddress(.framesUnknownSize), MetricAddress(.latencyMs, .p95), MetricAddress(.psnrDb, .mean),
        MetricAddress(.unmuteFirstPacketMs, .p95), MetricAddress(.unmuteFirstFrameMs, .p95), MetricAddress(.unmuteFirstFrameMs, .max),
        MetricAddress(.framesWhileMuted),
        MetricAddress(.ssim, .mean), MetricAddress(.ssimP5, .min),
        MetricAddress(.iceRestartMs, .p50), MetricAddress(.iceRestartMs, .max), MetricAddress(.iceRestartLostPackets, .max),
        MetricAddress(.rttMs, .p95), MetricAddress(.nacks), MetricAddress(.plis),
        MetricAddress(.joinMs, .p50), MetricAddress(.joinMs, .p95), MetricAddress(.relayMs, .p50), MetricAddress(.relayMs, .p99),
        MetricAddress(.messagesSent), MetricAddress(.messagesRelayed), MetricAddress(.messagesReceived), MetricAddress(.messagesLost),
        MetricAddress(.messagesDuplicated),
        MetricAddress(.streamNotifyMs, .p50), MetricAddress(.streamNotifyMs, .p99), MetricAddress(.participantNotifyMs, .p50),
        MetricAddress(.participantNotifyMs, .p99), MetricAddress(.notificationsExpected), MetricAddress(.notificationsReceived),
        MetricAddress(.notificationsLost),
        MetricAddress(.dcOpenMs, .p50), MetricAddress(.dcOpenMs, .p95), MetricAddress(.dcLatencyMs, .p50), MetricAddress(.dcLatencyMs, .p95),
        MetricAddress(.dcLatencyMs, .p99), MetricAddress(.dcThroughputKbps, .mean), MetricAddress(.dcLossPct, .mean), MetricAddress(.dcLossPct, .max),
        MetricAddress(.dcReordered), MetricAddress(.dcMessagesSent), MetricAddress(.dcMessagesReceived),
        MetricAddress(.lagMs, .p99), MetricAddress(.cpuPct, .max), MetricAddress(.rssMb, .max), MetricAddress(.socketDrops),
    ]

    /// (address, value per cell) for the addresses at least one cell measured; a counter
    /// or gauge counts as measured when the run kept it at all (a zero that means something).
    static func rows(for cells: [CellReport]) -> [(MetricAddress, [Double?])] {
        addresses.compactMap { address in
            let values = cells.map { cell -> Double? in
                let kept = switch address.name.kind {
                case .distribution: true
                case .counter: cell.metrics.counters[address.name] != nil
                case .gauge: cell.metrics.gauges[address.name] != nil
                }
                return kept ? cell.metrics.value(at: address) : nil
            }
            return values.contains { $0 != nil } ? (address, values) : nil
        }
    }
}
