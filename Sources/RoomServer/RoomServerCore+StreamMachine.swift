import RTCBase

/// The room server as the stream machine a listening host drives: accepted connections,
/// their bytes and ends in; writes and closes out. It tells its owner nothing
/// (`Event == Never`): its figures are read from `stats`.
extension RoomServerCore: StreamMachine {
    public mutating func handle(_ input: StreamInput, now: Instant) {
        switch input {
        case .accepted(let id, let address): accept(id, from: address, now: now)
        case .data(let id, let bytes): receive(id, bytes, now: now)
        case .closed(let id), .failed(let id, _): closed(id, now: now)
        case .backlog(let id, let bytes, let writes): unsent(id, bytes: bytes, messages: writes, now: now)
        case .refusedAtDescriptorLimit: refusedAtDescriptorLimit()
        case .connected: return
        }
    }

    public mutating func pollEvent() -> Never? { nil }
}
