/// One SCTP chunk (RFC 9260 3.2), with the FORWARD TSN chunk of RFC 3758 3.2. Chunks this
/// implementation does not use (ERROR, unknown types) keep their type so the receiver can
/// apply the rule of the type's two high bits (RFC 9260 3.2).
enum SctpChunk: Equatable, Sendable {
    case data(DataChunk)
    case initiate(InitChunk)
    case initAck(InitChunk)
    case sack(SackChunk)
    /// HEARTBEAT and HEARTBEAT ACK carry the sender's info parameter back unchanged (8.3).
    case heartbeat(info: [UInt8])
    case heartbeatAck(info: [UInt8])
    /// T bit: the sender had no TCB and reflected the verification tag (8.5.1).
    case abort(reflected: Bool)
    case shutdown(cumulativeTSN: UInt32)
    case shutdownAck
    case error
    case cookieEcho(cookie: [UInt8])
    case cookieAck
    case shutdownComplete(reflected: Bool)
    case forwardTSN(ForwardTSNChunk)
    case unknown(type: UInt8)

    enum Kind: UInt8 {
        case data = 0, initiate = 1, initAck = 2, sack = 3, heartbeat = 4, heartbeatAck = 5, abort = 6
        case shutdown = 7, shutdownAck = 8, error = 9, cookieEcho = 10, cookieAck = 11, shutdownComplete = 14
        case forwardTSN = 192
    }
}

/// A DATA chunk (RFC 9260 3.3.1): one message or one fragment of one.
struct DataChunk: Equatable, Sendable {
    var tsn: UInt32
    var stream: UInt16
    var ssn: UInt16
    var ppid: UInt32
    /// U bit: deliver without regard to the stream sequence number.
    var unordered: Bool
    /// B and E bits: the first and the last fragment of a message.
    var beginning: Bool
    var ending: Bool
    var payload: ArraySlice<UInt8>

    static let headerSize = 16
}

/// INIT and INIT ACK (RFC 9260 3.3.2, 3.3.3): the sender's tag, window, stream counts and
/// first TSN; an INIT ACK adds the state cookie. `forwardTSN` is RFC 3758 3.1's
/// Forward-TSN-Supported parameter.
struct InitChunk: Equatable, Sendable {
    var initiateTag: UInt32
    var advertisedWindow: UInt32
    var outboundStreams: UInt16
    var inboundStreams: UInt16
    var initialTSN: UInt32
    var forwardTSN: Bool = true
    var cookie: [UInt8]? = nil
}

/// SACK (RFC 9260 3.3.4): gap blocks are offsets from the cumulative TSN ack.
struct SackChunk: Equatable, Sendable {
    var cumulativeTSN: UInt32
    var advertisedWindow: UInt32
    var gaps: [(start: UInt16, end: UInt16)]
    var duplicates: [UInt32]

    static func == (lhs: SackChunk, rhs: SackChunk) -> Bool {
        lhs.cumulativeTSN == rhs.cumulativeTSN && lhs.advertisedWindow == rhs.advertisedWindow
            && lhs.gaps.map(\.start) == rhs.gaps.map(\.start) && lhs.gaps.map(\.end) == rhs.gaps.map(\.end)
            && lhs.duplicates == rhs.duplicates
    }
}

/// FORWARD TSN (RFC 3758 3.2): the receiver moves its cumulative TSN to `newCumulativeTSN`,
/// and on each listed ordered stream skips up to and including the SSN.
struct ForwardTSNChunk: Equatable, Sendable {
    var newCumulativeTSN: UInt32
    var streams: [(stream: UInt16, ssn: UInt16)]

    static func == (lhs: ForwardTSNChunk, rhs: ForwardTSNChunk) -> Bool {
        lhs.newCumulativeTSN == rhs.newCumulativeTSN && lhs.streams.map(\.stream) == rhs.streams.map(\.stream)
            && lhs.streams.map(\.ssn) == rhs.streams.map(\.ssn)
    }
}
