/// A whole message taken out of DATA chunks.
struct ReassembledMessage: Equatable, Sendable {
    var stream: UInt16
    var ppid: UInt32
    var payload: [UInt8]
}

/// Puts fragments back together (RFC 9260 6.9: one message's fragments have consecutive
/// TSNs, from the B bit to the E bit) and delivers ordered messages in SSN order per stream
/// (6.6) while unordered ones go out as soon as they are whole (6.6, U bit). Bytes held
/// are counted against the receive window by the association.
struct Reassembly: Sendable {
    private var fragments: [UInt32: DataChunk] = [:]
    /// Per ordered stream: the next SSN to deliver and whole messages waiting for it.
    private var streams: [UInt16: OrderedStream] = [:]
    private(set) var bufferedBytes = 0

    private struct OrderedStream: Sendable {
        var nextSSN: UInt16 = 0
        var waiting: [UInt16: ReassembledMessage] = [:]
    }

    /// Adds a new (not duplicate) chunk and returns what can be delivered now, in order.
    mutating func add(_ chunk: DataChunk) -> [ReassembledMessage] {
        if chunk.beginning && chunk.ending {
            return complete(ReassembledMessage(stream: chunk.stream, ppid: chunk.ppid, payload: Array(chunk.payload)),
                            ssn: chunk.ssn, unordered: chunk.unordered)
        }
        fragments[chunk.tsn] = chunk
        bufferedBytes += chunk.payload.count
        var first = chunk.tsn
        while !(fragments[first]?.beginning ?? true) { first &-= 1 }
        var last = chunk.tsn
        while !(fragments[last]?.ending ?? true) { last &+= 1 }
        guard let head = fragments[first], head.beginning, let tail = fragments[last], tail.ending else { return [] }
        var payload: [UInt8] = []
        var tsn = first
        while true {
            guard let part = fragments.removeValue(forKey: tsn) else { break }
            bufferedBytes -= part.payload.count
            payload.append(contentsOf: part.payload)
            if tsn == last { break }
            tsn &+= 1
        }
        return complete(ReassembledMessage(stream: head.stream, ppid: head.ppid, payload: payload),
                        ssn: head.ssn, unordered: head.unordered)
    }

    private mutating func complete(_ message: ReassembledMessage, ssn: UInt16, unordered: Bool) -> [ReassembledMessage] {
        if unordered { return [message] }
        var stream = streams[message.stream] ?? OrderedStream()
        defer { streams[message.stream] = stream }
        if ssn.ssnPrecedes(stream.nextSSN) { return [] }
        stream.waiting[ssn] = message
        bufferedBytes += message.payload.count
        return Self.drain(&stream, bufferedBytes: &bufferedBytes)
    }

    private static func drain(_ stream: inout OrderedStream, bufferedBytes: inout Int) -> [ReassembledMessage] {
        var ready: [ReassembledMessage] = []
        while let message = stream.waiting.removeValue(forKey: stream.nextSSN) {
            bufferedBytes -= message.payload.count
            ready.append(message)
            stream.nextSSN &+= 1
        }
        return ready
    }

    /// FORWARD TSN (RFC 3758 3.6): fragments up to `tsn` will never be completed.
    mutating func forget(upTo tsn: UInt32) {
        for (key, chunk) in fragments where key.tsnPrecedesOrEquals(tsn) {
            fragments[key] = nil
            bufferedBytes -= chunk.payload.count
        }
    }

    /// FORWARD TSN's stream entries: messages up to `ssn` on `stream` were abandoned, so
    /// those that did arrive are delivered and the stream moves past `ssn`.
    mutating func skip(stream id: UInt16, upTo ssn: UInt16) -> [ReassembledMessage] {
        var stream = streams[id] ?? OrderedStream()
        defer { streams[id] = stream }
        guard !ssn.ssnPrecedes(stream.nextSSN) else { return [] }
        var ready: [ReassembledMessage] = []
        for key in stream.waiting.keys.filter({ !ssn.ssnPrecedes($0) }).sorted(by: { $0.ssnPrecedes($1) }) {
            if let message = stream.waiting.removeValue(forKey: key) {
                bufferedBytes -= message.payload.count
                ready.append(message)
            }
        }
        stream.nextSSN = ssn &+ 1
        return ready + Self.drain(&stream, bufferedBytes: &bufferedBytes)
    }
}
