/// What one room member sent and received of the room's timestamped messages (role
/// `member`). Each message carries its sender's id and a sequence number that counts up
/// from 1, so a receiver can tell a lost message from one never sent to it, and a copy
/// from a new message: `lost` counts the numbers missing between the first and the last
/// number it got from each sender (as RFC 3550 A.3 counts RTP packets, losses after a
/// sender's last arrival are not seen), `duplicated` the copies of a number it already had.
public struct RoomMessageCounts: Codable, Equatable, Sendable {
    public var room: String
    /// Messages this member sent to the room (its last sequence number).
    public var sent: Int
    /// Messages it received from the others, copies included.
    public var received: Int
    public var lost: Int
    public var duplicated: Int

    public init(room: String, sent: Int, received: Int = 0, lost: Int = 0, duplicated: Int = 0) {
        self.room = room
        self.sent = sent
        self.received = received
        self.lost = lost
        self.duplicated = duplicated
    }
}
