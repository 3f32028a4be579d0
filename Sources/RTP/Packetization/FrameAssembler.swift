import RTCBase

/// Collects received RTP packets of one stream into complete frames, in order.
///
/// Packets are kept by extended sequence number in a ring of `capacity` slots, so
/// reordering, duplicates and wrap-around are handled. A frame is complete when its
/// packets share a timestamp, run without a gap from a start (the payload's start flag,
/// or for H.264 the packet after the previous frame) to an end (marker or E bit).
///
/// Frames come out in sequence order. A complete frame that follows an incomplete one
/// waits up to `maxWait` for the older frame to complete (a receiver that NACKs sets it
/// to how long a missing packet is still asked for, which may be several round trips);
/// then the older incomplete frames are dropped and counted. The wait is the `maxWait`
/// of when the frame completed: a shorter one set later (a round trip learned) does not
/// cut it, since the packets it waits for were NACKed at the pace of before. With
/// `maxWait` zero a later complete frame drops older incomplete ones at once. A dropped
/// frame whose missing packets all arrive afterwards counts as dropped late (the wait
/// was too short), apart from those that stay incomplete (a packet never came). Call
/// `insert` per packet and `handleTimeout(now:)` at `pollTimeout()`, then `pollFrame()`
/// until nil.
public struct FrameAssembler<Depacketizer: RtpDepacketizer>: Sendable {
    /// What the assembler did with its input.
    public struct Statistics: Equatable, Sendable {
        public var framesCompleted = 0
        public var keyframesCompleted = 0
        /// Incomplete frames dropped because a later frame completed and waited them out.
        public var framesDropped = 0
        /// Dropped frames whose missing packets all arrived after they were given up.
        public var framesDroppedLate = 0
        public var duplicatePackets = 0
        /// Packets of frames already delivered or dropped.
        public var latePackets = 0
        public var malformedPackets = 0
        /// Packets pushed out of the ring by much newer ones.
        public var evictedPackets = 0

        /// Dropped frames not (yet) made whole by late packets.
        public var framesIncomplete: Int { max(0, framesDropped - framesDroppedLate) }
    }

    /// Spans remembered at most, and packets missing from one: larger gaps are losses
    /// no wait would have saved.
    private static var spansKept: Int { 8 }
    private static var missingKept: Int { 32 }

    public let depacketizer: Depacketizer
    public private(set) var statistics = Statistics()
    private var slots: [BufferedPacket?]
    private var mask: Int64
    /// The ring's mask at `capacity`, which it grows to at most.
    private let largestMask: Int64
    /// Slots the ring starts with: a 640x360 keyframe is some 40 packets, and a ring of
    /// `capacity` on every stream was about 30 KB of a player's memory through SRS.
    private static var firstSlots: Int64 { 128 }
    private var unwrapper = SequenceNumberUnwrapper()
    /// The last packet of the last frame delivered or dropped.
    private var lastCompleted: Int64?
    /// Complete frames not yet delivered, in sequence order.
    private var pending: [PendingFrame] = []
    private var ready: [AssembledFrame] = []
    /// The last few dropped spans still missing packets, oldest first.
    private var dropped: [DroppedSpan] = []
    /// How long a complete frame waits for older incomplete frames; the receiver may
    /// change it as its round-trip time and resend times change.
    public var maxWait: Duration
    /// Whether frames other than keyframes carry their codec bytes. A receiver that decodes
    /// nothing and reads only keyframes (their size) sets it false: its delta frames come
    /// out with empty `data`, their payloads neither copied into a frame nor checked by
    /// the depacketizer beyond `inspect` (5 % of a player's instructions per packet).
    public var deltaFrameBytes = true

    /// `capacity` (rounded up to a power of two) bounds the packets held: it must cover
    /// the largest frame (a 200 KB keyframe is 170 packets at MTU 1200) and the
    /// reordering window. The ring (about 64 bytes a slot) is allocated on the first
    /// packet, so idle streams cost nothing, with 128 slots (fewer if `capacity` is); it
    /// doubles, up to `capacity`, when a packet's slot holds another packet still held.
    public init(depacketizer: Depacketizer, capacity: Int = 512, maxWait: Duration = .zero) {
        var size = 1
        while size < capacity { size <<= 1 }
        self.depacketizer = depacketizer
        self.maxWait = maxWait
        slots = []
        largestMask = Int64(size - 1)
        mask = min(largestMask, Self.firstSlots - 1)
    }

    /// Doubles the ring until `sequence`'s slot holds no other packet (older, or newer when
    /// packets come reordered), or it is `capacity`. Packets keep distinct slots: sequences
    /// apart by less than the old size are apart by less than the new one.
    private mutating func grow(toHold sequence: Int64) {
        while mask < largestMask, let occupant = slots[Int(sequence & mask)], occupant.sequence != sequence {
            mask = mask << 1 | 1
            var larger = [BufferedPacket?](repeating: nil, count: Int(mask) + 1)
            for case let slot? in slots { larger[Int(slot.sequence & mask)] = slot }
            slots = larger
        }
    }

    /// The ring's size now: 128 slots (or `capacity`) until a frame or the reordering needed more.
    public var slotCount: Int { Int(mask) + 1 }

    /// Takes one received packet (the payload is referenced, not copied).
    public mutating func insert(_ packet: RtpPacket, now: Instant) {
        if slots.isEmpty { slots = Array(repeating: nil, count: Int(mask) + 1) }
        let sequence = unwrapper.unwrap(packet.sequenceNumber)
        if let lastCompleted, sequence <= lastCompleted {
            statistics.latePackets += 1
            if !dropped.isEmpty { arrivedLate(sequence, timestamp: packet.timestamp) }
            return
        }
        if pending.contains(where: { $0.frame.firstSequence <= sequence && sequence <= $0.frame.lastSequence }) {
            statistics.duplicatePackets += 1
            return
        }
        grow(toHold: sequence)
        let index = Int(sequence & mask)
        if let existing = slots[index] {
            if existing.sequence == sequence {
                statistics.duplicatePackets += 1
                return
            }
            if existing.sequence > sequence {
                statistics.latePackets += 1
                return
            }
            statistics.evictedPackets += 1
        }
        let payload = ByteReader(packet.bytes, range: packet.payloadRange)
        guard let info = try? depacketizer.inspect(payload) else {
            statistics.malformedPackets += 1
            return
        }
        slots[index] = BufferedPacket(
            sequence: sequence, timestamp: packet.timestamp, marker: packet.marker, info: info, payload: payload,
            arrival: now)
        var next: Int64? = sequence
        while let candidate = next, let end = complete(around: candidate, now: now) {
            next = end + 1
        }
        release(now: now)
    }

    /// Incomplete frames (distinct timestamps of buffered packets) whose newest packet
    /// arrived more than `maxWait` before `now`: frames no later complete frame has given up
    /// yet, as in a stream where none completes any more. Walks the ring: for reports, not
    /// per packet.
    public func framesStalled(now: Instant) -> Int {
        var newest: [UInt32: Instant] = [:]
        for case let slot? in slots { newest[slot.timestamp] = max(newest[slot.timestamp] ?? slot.arrival, slot.arrival) }
        return newest.values.filter { now - $0 > maxWait }.count
    }

    /// Delivers frames that waited `maxWait` for older incomplete ones.
    public mutating func handleTimeout(now: Instant) { release(now: now) }

    /// When a waiting frame gives up on the frames before it.
    public func pollTimeout() -> Instant? { pending.first?.deadline }

    /// At the end of the stream: every frame still waiting for an older incomplete one is
    /// delivered (the older ones given up on), as a receiver that stops plays what it holds.
    public mutating func releaseHeld() {
        guard let latest = pending.map(\.deadline).max() else { return }
        release(now: latest)
    }

    /// The next frame, in sequence order.
    public mutating func pollFrame() -> AssembledFrame? {
        ready.isEmpty ? nil : ready.removeFirst()
    }

    /// Moves pending frames to `ready`: those right after the last delivered one, and
    /// those that waited long enough (dropping what came before them).
    private mutating func release(now: Instant) {
        while let first = pending.first {
            let start = first.frame.firstSequence
            // The first frame of the stream follows nothing: it waits only for buffered
            // packets before it.
            let follows = lastCompleted.map { start == $0 + 1 } ?? !((start - mask)..<start).contains { slot($0) != nil }
            guard follows || now >= first.deadline else { return }
            if !follows { dropOlder(than: start) }
            pending.removeFirst()
            lastCompleted = first.frame.lastSequence
            statistics.framesCompleted += 1
            if first.frame.isKeyframe { statistics.keyframesCompleted += 1 }
            ready.append(first.frame)
        }
    }

    private func slot(_ sequence: Int64) -> BufferedPacket? {
        guard let slot = slots[Int(sequence & mask)], slot.sequence == sequence else { return nil }
        return slot
    }

    /// Completes the frame holding packet `sequence` if it can; returns its last packet.
    private mutating func complete(around sequence: Int64, now: Instant) -> Int64? {
        // The end first: packets arriving in order fail here at once, so each frame is
        // walked back only once, when its last packet arrives.
        guard let packet = slot(sequence), let end = frameEnd(from: packet),
            let start = frameStart(from: packet)
        else { return nil }
        var frame = AssembledFrame(
            timestamp: packet.timestamp, data: [], isKeyframe: false, firstSequence: start, lastSequence: end,
            firstArrival: packet.arrival, lastArrival: packet.arrival)
        var malformed = false
        // Room for every payload and a start code per packet, so the frame is not regrown
        // as its packets are appended (most frames are a packet or two; keyframes are 40).
        var size = 0
        for current in start...end {
            guard let part = slot(current) else { return nil }
            frame.isKeyframe = frame.isKeyframe || part.info.isKeyframe
            frame.firstArrival = min(frame.firstArrival, part.arrival)
            frame.lastArrival = max(frame.lastArrival, part.arrival)
            size += part.payload.remaining + 4
        }
        if deltaFrameBytes || frame.isKeyframe {
            frame.data.reserveCapacity(size)
            for current in start...end where !malformed {
                if let part = slot(current), (try? depacketizer.append(part.payload, to: &frame.data)) == nil { malformed = true }
            }
        }
        for current in start...end { slots[Int(current & mask)] = nil }
        if malformed {
            // Its packets are gone: what follows waits for it as for a lost frame.
            statistics.malformedPackets += 1
            statistics.framesDropped += 1
        } else {
            let waiting = PendingFrame(frame: frame, deadline: now + maxWait)
            if let index = pending.firstIndex(where: { $0.frame.firstSequence > start }) {
                pending.insert(waiting, at: index)
            } else {
                pending.append(waiting)
            }
        }
        return end
    }

    /// Walks back from `packet` to the first packet of its frame; nil if a packet is missing.
    private func frameStart(from packet: BufferedPacket) -> Int64? {
        var current = packet
        for _ in 0...mask {
            switch current.info.isFrameStart {
            case true: return current.sequence
            case false, nil:
                let previous = current.sequence - 1
                if current.info.isFrameStart == nil, previous == lastCompleted || endsPendingFrame(previous) {
                    return current.sequence
                }
                guard let before = slot(previous) else { return nil }
                if before.timestamp != current.timestamp {
                    return current.info.isFrameStart == nil ? current.sequence : nil
                }
                current = before
            }
        }
        return nil
    }

    private func endsPendingFrame(_ sequence: Int64) -> Bool {
        pending.contains { $0.frame.lastSequence == sequence }
    }

    /// Walks forward from `packet` to the last packet of its frame; nil if one is missing.
    private func frameEnd(from packet: BufferedPacket) -> Int64? {
        var current = packet
        for _ in 0...mask {
            if current.marker || current.info.isFrameEnd == true { return current.sequence }
            guard let after = slot(current.sequence + 1), after.timestamp == current.timestamp else { return nil }
            current = after
        }
        return nil
    }

    /// Drops the buffered packets before `start`, counting the frames they belonged to
    /// and remembering which packets they were missing.
    private mutating func dropOlder(than start: Int64) {
        let from = max(lastCompleted.map { $0 + 1 } ?? start - mask, start - mask)
        var span = DroppedSpan(missing: [], timestamps: [])
        // Without a delivered frame before, the span begins at its first buffered packet.
        var seenFirst = lastCompleted != nil
        var current = from
        while current < start {
            if let packet = slot(current) {
                if packet.timestamp != span.timestamps.last {
                    statistics.framesDropped += 1
                    span.timestamps.append(packet.timestamp)
                }
                slots[Int(current & mask)] = nil
                seenFirst = true
            } else if seenFirst, span.missing.count <= Self.missingKept {
                span.missing.append(current)
            }
            current += 1
        }
        guard !span.missing.isEmpty, span.missing.count <= Self.missingKept else { return }
        if dropped.count == Self.spansKept { dropped.removeFirst() }
        dropped.append(span)
    }

    /// A packet of a frame already given up arrived: when it was the last one its span
    /// missed, that span's frames were dropped late.
    private mutating func arrivedLate(_ sequence: Int64, timestamp: UInt32) {
        guard let index = dropped.firstIndex(where: { $0.missing.contains(sequence) }) else { return }
        dropped[index].missing.removeAll { $0 == sequence }
        if !dropped[index].timestamps.contains(timestamp) { dropped[index].timestamps.append(timestamp) }
        guard dropped[index].missing.isEmpty else { return }
        statistics.framesDroppedLate += dropped[index].timestamps.count
        dropped.remove(at: index)
    }
}

// The assembler's parts hold nothing of its depacketizer's type: outside the generic type
// they are plain structs, copied inline, where nested in it every copy of a slot went
// through the type's value witnesses (about 1 % of a player worker through SRS).

/// Frames dropped together and the packets they were missing: when those all arrive
/// late, the frames were dropped late.
private struct DroppedSpan: Sendable {
    var missing: [Int64]
    /// One per frame: of the dropped packets and of the late ones.
    var timestamps: [UInt32]
}

/// A received packet in the ring, its payload referenced.
private struct BufferedPacket: Sendable {
    var sequence: Int64
    var timestamp: UInt32
    var marker: Bool
    var info: RtpPayloadInfo
    var payload: ByteReader
    var arrival: Instant
}

/// A complete frame waiting for older incomplete ones until `deadline`.
private struct PendingFrame: Sendable {
    var frame: AssembledFrame
    var deadline: Instant
}
