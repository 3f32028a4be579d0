import RTCBase

/// Data channels over the association (RFC 8831, DCEP RFC 8832): opening with
/// DATA_CHANNEL_OPEN / ACK on the channel's stream (sent ordered and reliable, RFC 8832 6),
/// negotiated channels without DCEP, and the PPIDs that mark strings, binary and empty
/// messages (RFC 8831 6.6, 8).
extension SctpAssociation {
    /// Opens a channel and returns its stream id: the negotiated id, or the next free one
    /// of our parity (even for the DTLS client, odd for the server, RFC 8832 6). It opens
    /// when the peer acks (or at once for a negotiated channel once the association is up);
    /// messages sent before that go ordered.
    public mutating func openChannel(_ options: DataChannelOptions, now: Instant) throws(SctpError) -> UInt16 {
        guard !finished, state == .closed || state == .cookieWait || state == .cookieEchoed || state == .established else {
            throw SctpError(.closed, "the association is closing or closed")
        }
        let id: UInt16
        if let negotiated = options.negotiatedID {
            id = negotiated
        } else {
            while channels[nextChannelID] != nil && nextChannelID < configuration.streams - 1 { nextChannelID &+= 2 }
            id = nextChannelID
        }
        guard id < configuration.streams, channels[id] == nil else {
            throw SctpError(.channelID, "stream id \(id) is taken or beyond \(configuration.streams) streams")
        }
        let channel = DataChannel(id: id, options: options)
        if options.negotiatedID != nil {
            channels[id] = ChannelState(channel: channel, open: true, acked: true)
            if state == .established { events.append(.channelOpen(channel)) }
        } else {
            channels[id] = ChannelState(channel: channel, open: false, acked: false)
            outbound.enqueue(stream: id, ppid: PayloadProtocol.dcep,
                             payload: DataChannelControl.open(options, priority: DataChannelControl.normalPriority).serialize(),
                             unordered: false, reliability: .reliable, now: now)
            nextChannelID &+= 2
        }
        flush(now: now)
        return id
    }

    /// Queues one message (RFC 8831 6.6): at most `maxMessageSize` bytes; an empty one
    /// goes as a single zero byte with the empty PPID.
    public mutating func send(_ bytes: [UInt8], isString: Bool = false, on id: UInt16, now: Instant) throws(SctpError) {
        guard !finished, state == .closed || state == .cookieWait || state == .cookieEchoed || state == .established else {
            throw SctpError(.closed, "the association is closing or closed")
        }
        guard let channel = channels[id] else { throw SctpError(.channelID, "no channel on stream \(id)") }
        guard bytes.count <= configuration.maxMessageSize else {
            throw SctpError(.tooLarge, "\(bytes.count) bytes is more than max-message-size \(configuration.maxMessageSize)")
        }
        let ppid = switch (isString, bytes.isEmpty) {
        case (true, false): PayloadProtocol.string
        case (true, true): PayloadProtocol.emptyString
        case (false, false): PayloadProtocol.binary
        case (false, true): PayloadProtocol.emptyBinary
        }
        let options = channel.channel.options
        outbound.enqueue(stream: id, ppid: ppid, payload: bytes.isEmpty ? [0] : bytes,
                         unordered: !options.ordered && channel.acked, reliability: options.reliability, now: now)
        tally.messagesSent += 1
        flush(now: now)
    }

    mutating func deliver(_ message: ReassembledMessage, now: Instant) {
        if message.ppid == PayloadProtocol.dcep {
            receivedControl(message, now: now)
            return
        }
        guard channels[message.stream] != nil else {
            tally.droppedMessages += 1
            return
        }
        let isString: Bool
        var bytes = message.payload
        switch message.ppid {
        case PayloadProtocol.string: isString = true
        case PayloadProtocol.binary: isString = false
        case PayloadProtocol.emptyString: (isString, bytes) = (true, [])
        case PayloadProtocol.emptyBinary: (isString, bytes) = (false, [])
        default:
            tally.droppedMessages += 1
            return
        }
        tally.messagesReceived += 1
        events.append(.message(DataChannelMessage(channel: message.stream, bytes: bytes, isString: isString)))
    }

    private mutating func receivedControl(_ message: ReassembledMessage, now: Instant) {
        let control: DataChannelControl
        do {
            control = try DataChannelControl.parse(message.payload[...])
        } catch {
            tally.malformedDCEP += 1
            return
        }
        switch control {
        case .open(let options, _):
            guard channels[message.stream] == nil else {
                tally.malformedDCEP += 1
                return
            }
            let channel = DataChannel(id: message.stream, options: options)
            channels[message.stream] = ChannelState(channel: channel, open: true, acked: true)
            outbound.enqueue(stream: message.stream, ppid: PayloadProtocol.dcep, payload: DataChannelControl.ack.serialize(),
                             unordered: false, reliability: .reliable, now: now)
            events.append(.channelOpen(channel))
        case .ack:
            guard var state = channels[message.stream], !state.open else {
                tally.malformedDCEP += 1
                return
            }
            state.open = true
            state.acked = true
            channels[message.stream] = state
            events.append(.channelOpen(state.channel))
        }
    }
}

/// Why the association refused a call from its owner.
public struct SctpError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable { case closed, channelID, tooLarge }
    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
