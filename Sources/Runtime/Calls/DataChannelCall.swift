import EventLoop
import PeerCore
import Report
import RTCBase
import SCTP
import Scenario

/// The data channels of one side of a call (`groups[].data`): once the call is up the
/// offerer (the caller) opens each channel (DCEP, RFC 8832) and both sides open the
/// negotiated ones (RFC 8831 6.5); the caller sends stamped messages (`DataMessageStamp`) at the
/// scenario's rate, alone or in bursts, and stops `drain` before its planned end so that
/// what it sent can arrive; the callee counts what arrives and, for `echo`, returns it.
/// Each message's latency goes into the worker's `dc_latency_ms` as it arrives.
final class DataChannelCall {
    /// How long before the planned end the caller sends its last message.
    static let drain: Duration = .seconds(3)

    private struct Channel {
        var spec: ResolvedData.Channel
        var streamId: UInt16?
        var openMs: Double?
        var sent = 0
        var tally = DataChannelTally()
    }

    private let loop: EventLoop
    private let recorder: RunRecorder
    private let data: ResolvedData
    /// The offerer: it opens the channels and sends; the answerer receives (and echoes).
    private var isCaller = false
    /// The echoes' latency and loss count in the run's figures (nobody measured the one-way
    /// trip at the other side: it is not an rtcswarm peer).
    private let echoesInFigures: Bool
    private let stopSendingAt: Instant?
    /// A subscriber to a server's relay of somebody else's messages (a VideoRoom player).
    private let subscriber: Bool
    /// A subscriber's relay channel: the one the server opened under a label of its own
    /// (Janus names it after the publisher), whose messages count on the scenario's channel.
    private var relayStream: UInt16?
    private var channels: [Channel]
    private weak var call: MediaCall?
    private var sendTimer: TimerID?

    /// `subscriber`: this side receives what a server relays from another peer (a Janus
    /// VideoRoom player). It opens its channels itself, as Janus's own client does: Janus
    /// relays nothing to a subscriber before a channel is open there (its `data_ready`), then
    /// opens one of its own, named after the publisher, to send on. It echoes nothing, and its loss counts
    /// from the first message it got, since the stream of messages began before it joined.
    init(loop: EventLoop, recorder: RunRecorder, data: ResolvedData, echoesInFigures: Bool, plannedStop: Instant?,
         subscriber: Bool = false) {
        self.loop = loop
        self.recorder = recorder
        self.data = data
        self.echoesInFigures = echoesInFigures
        self.subscriber = subscriber
        stopSendingAt = plannedStop.map { $0 - Self.drain }
        channels = data.channels.map { Channel(spec: $0, tally: DataChannelTally(countsFromLowest: subscriber)) }
    }

    /// Why the call cannot carry the scenario's channels: the other side offered (or
    /// answered) no data channel section; nil when it did.
    func refusal(of peer: Peer) -> String? {
        peer.dataChannelsNegotiated ? nil
            : "the other side \(isCaller ? "declined" : "offered no") data channel, which the scenario asks for"
    }

    /// The channels that never opened, for the failure reason at a planned end; nil when all did.
    var notOpened: String? {
        let labels = channels.filter { $0.streamId == nil }.map { "\"\($0.spec.label)\"" }
        return labels.isEmpty ? nil : "data channel \(labels.joined(separator: ", ")) never opened"
    }

    /// The call is up (ICE and DTLS): open the channels this side opens.
    func connected(_ call: MediaCall) {
        self.call = call
        guard let peer = call.peer else { return }
        isCaller = peer.configuration.role == .offerer
        let now = loop.now()
        for index in channels.indices where isCaller || subscriber || channels[index].spec.negotiatedId != nil {
            let spec = channels[index].spec
            let reliability: Reliability = switch spec.reliability {
            case .reliable: .reliable
            case .maxRetransmits(let count): .maxRetransmits(UInt32(count))
            case .maxPacketLifeMs(let ms): .lifetime(.milliseconds(ms))
            }
            let options = DataChannelOptions(label: spec.label, ordered: spec.ordered, reliability: reliability,
                                             negotiatedID: spec.negotiatedId.map(UInt16.init))
            _ = try? peer.openDataChannel(options, now: now)
        }
        call.drive()
    }

    func handle(_ event: SctpEvent) {
        let now = loop.now()
        switch event {
        case .channelOpen(let channel):
            guard let index = channels.firstIndex(where: { $0.spec.label == channel.options.label && $0.streamId == nil }) else {
                if subscriber, relayStream == nil, !channels.contains(where: { $0.spec.label == channel.options.label }) { relayStream = channel.id }
                return
            }
            channels[index].streamId = channel.id
            let dtlsDone = call?.peer?.stats(now: now).timeline.dtlsConnected
            channels[index].openMs = dtlsDone.map { now.milliseconds(since: $0) }
            if isCaller, sendTimer == nil { scheduleSend(at: now) }
        case .message(let message):
            guard let index = channels.firstIndex(where: { $0.streamId == message.channel })
                ?? (message.channel == relayStream ? channels.indices.first : nil) else { return }
            let echo = isCaller
            guard let latency = channels[index].tally.receive(message.bytes, now: now, halved: echo) else { return }
            if !echo || echoesInFigures { recorder.record(latency, in: .dcLatencyMs) }
            if !isCaller, !subscriber, data.pattern == .echo { send(message.bytes, on: index, now: now) }
        case .associationUp, .closed:
            break
        }
    }

    /// Sends at `at`, and from then on every `burst_size / rate_per_s` seconds after the
    /// previous deadline (not after the late wake-up), so a busy loop does not lower the rate.
    private func scheduleSend(at deadline: Instant) {
        sendTimer = loop.schedule(at: deadline) { [weak self] in self?.sendBurst(due: deadline) }
    }

    /// One message (a burst of them) on every open channel, then the next, until the
    /// drain before the planned end.
    private func sendBurst(due: Instant) {
        let now = loop.now()
        if let stopSendingAt, now >= stopSendingAt { return }
        for _ in 0..<data.burstSize {
            for index in channels.indices where channels[index].streamId != nil {
                let stamp = DataMessageStamp(sequence: UInt64(channels[index].sent), sentAt: now)
                send(stamp.message(size: data.sizeBytes), on: index, now: now)
            }
        }
        scheduleSend(at: due + .nanoseconds(Int64((Double(data.burstSize) / data.ratePerS * 1e9).rounded())))
    }

    private func send(_ bytes: [UInt8], on index: Int, now: Instant) {
        guard let id = channels[index].streamId, let call, let peer = call.peer else { return }
        do {
            try peer.sendData(bytes, on: id, now: now)
            channels[index].sent += 1
        } catch {
            return
        }
        call.drive()
    }

    /// Stops sending and gives one record per channel.
    func finish() -> [DataChannelRecord] {
        if let sendTimer { loop.cancel(sendTimer) }
        sendTimer = nil
        return channels.map { channel in
            let tally = channel.tally
            return DataChannelRecord(label: channel.spec.label, streamId: channel.streamId.map(Int.init), ordered: channel.spec.ordered,
                                     reliable: channel.spec.isReliable, openMs: channel.openMs, messagesSent: channel.sent,
                                     messagesReceived: tally.received, messagesLost: tally.lost, reordered: tally.reordered,
                                     unreadable: tally.unreadable,
                                     echoed: isCaller, latencyMeanMs: tally.latencyMeanMs, latencyMaxMs: tally.latencyMaxMs,
                                     throughputKbps: tally.throughputKbps, inFigures: !isCaller || echoesInFigures)
        }
    }
}
