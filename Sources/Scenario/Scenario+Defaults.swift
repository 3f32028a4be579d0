/// The defaults docs/scenarios.md states for optional scenario values, decided here once
/// so the runtime never spells them out itself.
extension RoomSettings {
    /// PROTOCOLS.md section 3: what the seed room server sends the others on a join.
    public static let defaultOtherJoinedEvent = "other_joined"
}

extension Target {
    /// The join event's name on this target's room server (`target.room.other_joined_event`).
    public var otherJoinedEvent: String { room?.otherJoinedEvent ?? RoomSettings.defaultOtherJoinedEvent }
}

extension StreamSettings {
    public static let defaultName = "livestream"

    /// The stream's name, `livestream` when the scenario gives none.
    public var resolvedName: String { name ?? Self.defaultName }
}
