/// The names a received stream's packet figures go under, by its media kind
/// (docs/metrics.md: `video.loss_pct`, `audio.loss_pct`, ...).
public struct StreamFigureNames: Sendable, Equatable {
    public let loss: MetricName
    public let residualLoss: MetricName
    public let burstMax: MetricName
    public let jitter: MetricName
    public let jitterMax: MetricName
    public let lossEpisodes: MetricName

    /// Nil for a kind that has no figures of its own (neither `video` nor `audio`).
    public init?(kind: String) {
        switch kind {
        case "video":
            (loss, residualLoss, burstMax) = (.videoLossPct, .videoResidualLossPct, .videoBurstMax)
            (jitter, jitterMax, lossEpisodes) = (.videoJitterMs, .videoJitterMaxMs, .videoLossEpisodes)
        case "audio":
            (loss, residualLoss, burstMax) = (.audioLossPct, .audioResidualLossPct, .audioBurstMax)
            (jitter, jitterMax, lossEpisodes) = (.audioJitterMs, .audioJitterMaxMs, .audioLossEpisodes)
        default:
            return nil
        }
    }
}
