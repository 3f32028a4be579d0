import RTCBase

/// What every data channel message of a run starts with: its sequence number on its
/// channel (from 0) and its send time, 8 bytes each, big-endian, then zeros up to the
/// message size. All of a run's workers share the machine's monotonic clock, so the
/// receiver's arrival time minus the send time is the one-way latency.
struct DataMessageStamp: Equatable {
    var sequence: UInt64
    var sentAt: Instant

    /// The message: the stamp, padded with zeros to `size` bytes (at least the stamp's 16).
    func message(size: Int) -> [UInt8] {
        var writer = ByteWriter(capacity: max(size, 16))
        writer.writeU64(sequence)
        writer.writeU64(UInt64(bitPattern: sentAt.nanoseconds))
        writer.writeZeros(max(0, size - 16))
        return writer.bytes
    }

    /// The stamp at the start of a received message; nil for one too short to carry it
    /// (not a message of this run's pattern).
    init?(reading bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        guard let sequence = try? reader.readU64("sequence number"), let sent = try? reader.readU64("send time") else { return nil }
        self.init(sequence: sequence, sentAt: Instant(nanoseconds: Int64(bitPattern: sent)))
    }

    init(sequence: UInt64, sentAt: Instant) {
        self.sequence = sequence
        self.sentAt = sentAt
    }
}
