import RTCBase

/// The sender's DATA chunks by TSN (RFC 9260 6.1, 6.3, 7.2; RFC 3758 3.5): fragments are
/// cut and given TSNs when a message is queued; then each chunk is unsent, in flight,
/// waiting for retransmission, gap-acked or abandoned until the cumulative ack passes it.
/// It keeps the flight size and the congestion window with it.
struct OutboundQueue: Sendable {
    struct Chunk: Sendable {
        var data: DataChunk
        /// Fragments of one message share it; abandoning one abandons them all (RFC 3758 3.5 C3).
        var message: UInt64
        var reliability: Reliability
        var queuedAt: Instant
        var sentAt: Instant?
        var transmissions = 0
        var missingReports = 0
        var fastRetransmitted = false
        var state: State = .unsent
    }

    enum State: Sendable { case unsent, inFlight, toRetransmit, acked, abandoned }

    /// Chunks from the cumulative ack point on; `chunks[head]` has TSN `firstTSN`.
    var chunks: [Chunk] = []
    var head = 0
    var firstTSN: UInt32
    var nextUnsent = 0
    var retransmits: [UInt32] = []
    var nextMessage: UInt64 = 0
    var nextSSN: [UInt16: UInt16] = [:]

    let mtu: Int
    var flightSize = 0
    var congestionWindow: Int
    var slowStartThreshold: Int
    var partialBytesAcked = 0
    var fastRecoveryExit: UInt32?
    var peerWindow: Int
    /// RFC 3758 3.5's Advanced.Peer.Ack.Point, when it is ahead of the cumulative ack.
    var advancedPeerAckPoint: UInt32
    var rttProbe: (tsn: UInt32, sentAt: Instant)?
    var counters = Counters()

    struct Counters: Sendable, Equatable {
        var retransmissions = 0
        var fastRetransmits = 0
        var abandonedMessages = 0
        var t3Expiries = 0
    }

    init(initialTSN: UInt32, mtu: Int, peerWindow: Int) {
        firstTSN = initialTSN
        advancedPeerAckPoint = initialTSN &- 1
        self.mtu = mtu
        self.peerWindow = peerWindow
        congestionWindow = min(4 * mtu, max(2 * mtu, 4380))
        slowStartThreshold = peerWindow
    }

    var cumulativeAck: UInt32 { firstTSN &- 1 }
    var isEmpty: Bool { head == chunks.count }
    var hasInFlight: Bool { flightSize > 0 }
    var hasUnsentOrRetransmit: Bool { nextUnsent < chunks.count || !retransmits.isEmpty }
    var maxPayload: Int { mtu - SctpPacket.headerSize - DataChunk.headerSize }

    func index(of tsn: UInt32) -> Int? {
        let offset = Int(tsn &- firstTSN)
        return tsn.tsnPrecedes(firstTSN) || head + offset >= chunks.count ? nil : head + offset
    }

    /// Cuts `payload` into fragments that fit the MTU (RFC 9260 6.9) and queues them.
    mutating func enqueue(stream: UInt16, ppid: UInt32, payload: [UInt8], unordered: Bool, reliability: Reliability, now: Instant) {
        let ssn: UInt16
        if unordered {
            ssn = 0
        } else {
            ssn = nextSSN[stream, default: 0]
            nextSSN[stream] = ssn &+ 1
        }
        let message = nextMessage
        nextMessage += 1
        var start = 0
        var tsn = firstTSN &+ UInt32(chunks.count - head)
        repeat {
            let end = min(start + maxPayload, payload.count)
            let data = DataChunk(tsn: tsn, stream: stream, ssn: ssn, ppid: ppid, unordered: unordered,
                                 beginning: start == 0, ending: end == payload.count, payload: payload[start..<end])
            chunks.append(Chunk(data: data, message: message, reliability: reliability, queuedAt: now))
            tsn &+= 1
            start = end
        } while start < payload.count
    }

    /// The next chunk to send within the congestion and peer windows (RFC 9260 6.1 A, B):
    /// retransmissions first, then new chunks; nil when the windows are full. Chunks whose
    /// reliability has run out are abandoned instead of sent (RFC 3758 3.5 A3).
    mutating func nextToSend(room: Int, now: Instant) -> DataChunk? {
        while let tsn = retransmits.first {
            guard let position = index(of: tsn), chunks[position].state == .toRetransmit else {
                retransmits.removeFirst()
                continue
            }
            guard fits(chunks[position], room: room, newData: false) else { return nil }
            retransmits.removeFirst()
            if expired(chunks[position], now: now) {
                abandon(at: position)
                continue
            }
            counters.retransmissions += 1
            return send(at: position, now: now)
        }
        while nextUnsent < chunks.count {
            let position = max(nextUnsent, head)
            nextUnsent = position
            guard position < chunks.count else { return nil }
            if chunks[position].state != .unsent {
                nextUnsent += 1
                continue
            }
            if case .lifetime(let lifetime) = chunks[position].reliability, now - chunks[position].queuedAt > lifetime {
                abandon(at: position)
                nextUnsent += 1
                continue
            }
            guard fits(chunks[position], room: room, newData: true) else { return nil }
            nextUnsent += 1
            return send(at: position, now: now)
        }
        return nil
    }

    func fits(_ chunk: Chunk, room: Int, newData: Bool) -> Bool {
        let size = DataChunk.headerSize + chunk.data.payload.count
        guard size <= room else { return false }
        if flightSize == 0 { return true }
        if flightSize + chunk.data.payload.count > congestionWindow { return false }
        return !newData || chunk.data.payload.count <= peerWindow
    }

    mutating func send(at position: Int, now: Instant) -> DataChunk {
        chunks[position].state = .inFlight
        chunks[position].transmissions += 1
        chunks[position].sentAt = now
        chunks[position].missingReports = 0
        flightSize += chunks[position].data.payload.count
        peerWindow = max(0, peerWindow - chunks[position].data.payload.count)
        if rttProbe == nil, chunks[position].transmissions == 1 { rttProbe = (chunks[position].data.tsn, now) }
        return chunks[position].data
    }

    /// RFC 3758 3.5 A3 and A4: a chunk due for retransmission whose budget is spent.
    func expired(_ chunk: Chunk, now: Instant) -> Bool {
        switch chunk.reliability {
        case .reliable: return false
        case .maxRetransmits(let limit): return chunk.transmissions > Int(limit)
        case .lifetime(let lifetime): return now - chunk.queuedAt > lifetime
        }
    }

    mutating func abandon(at position: Int) {
        let message = chunks[position].message
        var first = position
        while first > head, chunks[first - 1].message == message { first -= 1 }
        var index = first
        while index < chunks.count, chunks[index].message == message {
            if chunks[index].state == .inFlight { flightSize -= chunks[index].data.payload.count }
            if chunks[index].state != .acked { chunks[index].state = .abandoned }
            index += 1
        }
        counters.abandonedMessages += 1
    }
}

extension OutboundQueue {
    /// The peer's a_rwnd from its INIT or INIT ACK; slow start runs up to it (RFC 9260 7.2.1).
    mutating func peerInitialized(window: Int) {
        peerWindow = window
        slowStartThreshold = window
    }
}
