import RTCBase

/// Transport-wide congestion control feedback: transport-layer feedback FMT 15
/// (draft-holmer-rmcat-transport-wide-cc-extensions-01 3.1).
///
/// Reports, for `deltas.count` consecutive transport-wide sequence numbers from
/// `baseSequence`, whether each packet arrived and its receive time as a delta in
/// 250 us ticks from the previous received packet (the first from `referenceTime`,
/// in 64 ms units). Deltas in 0...255 travel as one byte ("small"), others as a signed
/// 16-bit value ("large"). Statuses travel as run-length and status-vector chunks
/// (`TransportCcFeedback+Chunks.swift`).
public struct TransportCcFeedback: Equatable, Sendable {
    public static let format: UInt8 = 15
    /// Receive deltas count in units of 250 microseconds.
    public static let deltaTickMicroseconds: Int64 = 250
    /// The reference time counts in units of 64 milliseconds.
    public static let referenceTickMicroseconds: Int64 = 64_000

    public var senderSsrc: UInt32
    public var mediaSsrc: UInt32
    public var baseSequence: UInt16
    /// Signed 24-bit, in 64 ms units.
    public var referenceTime: Int32
    /// Feedback packet count, incremented per feedback sent (wraps at 256).
    public var feedbackCount: UInt8
    /// One entry per sequence number from `baseSequence`: nil when not received,
    /// else the receive delta in 250 us ticks.
    public var deltas: [Int16?]

    public init(
        senderSsrc: UInt32, mediaSsrc: UInt32, baseSequence: UInt16, referenceTime: Int32, feedbackCount: UInt8,
        deltas: [Int16?]
    ) {
        self.senderSsrc = senderSsrc
        self.mediaSsrc = mediaSsrc
        self.baseSequence = baseSequence
        self.referenceTime = referenceTime
        self.feedbackCount = feedbackCount
        self.deltas = deltas
    }

    /// Builds feedback from receive times in microseconds (nil: not received) of the
    /// packets `baseSequence`, `baseSequence + 1`, ... The reference time is the first
    /// arrival rounded down to 64 ms; deltas are rounded to 250 us without drift, and
    /// clamped to the signed 16-bit range.
    public init(
        senderSsrc: UInt32, mediaSsrc: UInt32, baseSequence: UInt16, feedbackCount: UInt8, arrivalMicroseconds: [Int64?]
    ) {
        let first = arrivalMicroseconds.lazy.compactMap { $0 }.first ?? 0
        let reference = first >= 0
            ? first / Self.referenceTickMicroseconds
            : -((-first + Self.referenceTickMicroseconds - 1) / Self.referenceTickMicroseconds)
        var previousTicks = reference * (Self.referenceTickMicroseconds / Self.deltaTickMicroseconds)
        var deltas: [Int16?] = []
        deltas.reserveCapacity(arrivalMicroseconds.count)
        for arrival in arrivalMicroseconds {
            guard let arrival else {
                deltas.append(nil)
                continue
            }
            let ticks = (arrival + Self.deltaTickMicroseconds / 2).quotientRoundingDown(Self.deltaTickMicroseconds)
            let delta = Int16(clamping: ticks - previousTicks)
            previousTicks += Int64(delta)
            deltas.append(delta)
        }
        // The reference time field holds 24 bits; keep its sign-extended value.
        let wrapped = (Int32(truncatingIfNeeded: reference) << 8) >> 8
        self.init(
            senderSsrc: senderSsrc, mediaSsrc: mediaSsrc, baseSequence: baseSequence, referenceTime: wrapped,
            feedbackCount: feedbackCount, deltas: deltas)
    }

    /// Receive times in microseconds on the sender of this feedback's clock (reference
    /// time plus accumulated deltas), nil for packets not received.
    public var arrivalMicroseconds: [Int64?] {
        var ticks = Int64(referenceTime) * (Self.referenceTickMicroseconds / Self.deltaTickMicroseconds)
        return deltas.map { delta in
            guard let delta else { return nil }
            ticks += Int64(delta)
            return ticks * Self.deltaTickMicroseconds
        }
    }

    /// Reads the body that follows `header` (FMT 15 of PT 205).
    public init(header: RtcpHeader, body reader: inout ByteReader) throws(ParseError) {
        senderSsrc = try reader.readU32("TWCC sender SSRC")
        mediaSsrc = try reader.readU32("TWCC media SSRC")
        baseSequence = try reader.readU16("TWCC base sequence")
        let statusCount = Int(try reader.readU16("TWCC status count"))
        let reference = try reader.readU24("TWCC reference time")
        referenceTime = Int32(bitPattern: reference << 8) >> 8
        feedbackCount = try reader.readU8("TWCC feedback count")
        let statuses = try Self.readStatuses(count: statusCount, from: &reader)
        deltas = []
        deltas.reserveCapacity(statusCount)
        for status in statuses {
            switch status {
            case .notReceived: deltas.append(nil)
            case .smallDelta: deltas.append(Int16(try reader.readU8("TWCC small delta")))
            case .largeDelta: deltas.append(Int16(bitPattern: try reader.readU16("TWCC large delta")))
            }
        }
    }

    /// Appends the packet to `writer` (padded to 32 bits, length field filled in).
    public func write(to writer: inout ByteWriter) {
        let start = RtcpHeader.begin(count: Self.format, packetType: RtcpHeader.transportFeedback, to: &writer)
        writer.writeU32(senderSsrc)
        writer.writeU32(mediaSsrc)
        writer.writeU16(baseSequence)
        let written = deltas.prefix(Int(UInt16.max))
        writer.writeU16(UInt16(written.count))
        writer.writeU24(UInt32(bitPattern: referenceTime) & 0xff_ffff)
        writer.writeU8(feedbackCount)
        let statuses = written.map(Status.init(delta:))
        Self.writeChunks(statuses, to: &writer)
        for delta in written {
            guard let delta else { continue }
            if (0...255).contains(delta) {
                writer.writeU8(UInt8(delta))
            } else {
                writer.writeU16(UInt16(bitPattern: delta))
            }
        }
        RtcpHeader.finish(at: start, to: &writer)
    }
}

extension Int64 {
    /// Floor division (rounds towards minus infinity).
    fileprivate func quotientRoundingDown(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
