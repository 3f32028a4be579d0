/// What a link did to the packets offered to it.
///
/// `sent - droppedByLoss - droppedByQueue + duplicated` packets are delivered once the
/// link is drained; `delivered` counts those handed out so far.
public struct ImpairmentCounters: Hashable, Sendable, Codable {
    /// Packets offered by the driver (`send`).
    public var sent = 0
    /// Packets lost by the loss model (random or Gilbert-Elliott).
    public var droppedByLoss = 0
    /// Packets (originals or duplicates) dropped because the rate limiter's queue was full.
    public var droppedByQueue = 0
    /// Extra copies made by duplication.
    public var duplicated = 0
    /// Packets handed out by `pollDelivery`, duplicates included.
    public var delivered = 0

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case sent
        case droppedByLoss = "dropped_by_loss"
        case droppedByQueue = "dropped_by_queue"
        case duplicated
        case delivered
    }
}
