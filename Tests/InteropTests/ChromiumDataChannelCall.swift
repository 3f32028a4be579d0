import EventLoop
import Foundation
import Net
import PeerCore
import RTCBase
import Report
import RoomServer
@testable import Runtime
import SCTP
import Signaling
import WebRTCTestKit

/// One data channel call between rtcswarm's peer and headless Chromium, through the
/// built-in room server on 127.0.0.1 (run it inside a namespace that has only `lo`). The
/// page opens "from-chromium" and sends its messages there; rtcswarm opens "from-rtcswarm"
/// once SCTP is up and sends the same sizes; each side echoes the other's channel.
struct ChromiumDataChannelCall {
    static let sizes = [1, 1024, 16_384, 65_536]
    /// What rtcswarm sends on its channel: one binary message of each size, then a string.
    static let messages: [(bytes: [UInt8], isString: Bool)] = sizes.map { (pattern($0), false) } + [(Array("text from rtcswarm".utf8), true)]

    /// What rtcswarm counted on one channel, and its open time from DTLS done (`dc_open_ms`).
    struct Channel: Codable, Equatable {
        var label: String
        var id: Int
        var openMs: Double
        var messagesSent = 0
        var messagesReceived = 0
        var bytesSent = 0
        var bytesReceived = 0
    }

    struct Figures: Codable {
        var ours: Channel
        var theirs: Channel
        /// Echoes on rtcswarm's channel identical to what it sent, in order, and ones that were not.
        var echoesIntact: Int
        var echoesCorrupt: Int
        /// The data channel section of rtcswarm's description (offer or answer).
        var applicationSection: String
        var browser: BrowserStats
    }

    /// Byte i of an n-byte message is (31 i + n) mod 256, as the page makes them.
    static func pattern(_ size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ size) } }

    let rtcswarmOffers: Bool
    let log: URL

    func run() throws -> Figures {
        let loop = try EventLoop()
        let server = try RoomServerStream(loop: loop, address: SocketAddress(ipv4: 127, 0, 0, 1, port: 0), configuration: RoomServerConfiguration())
        let local = try LoopPeer(loop: loop, role: rtcswarmOffers ? .offerer : .answerer, direction: .inactive, seed: 20, dataChannels: true)
        let endpoint = try Endpoint(parsing: "http://\(server.address)")
        var failure: String?
        var description = ""
        var browser: BrowserStats?
        let signaling = StreamHost(loop: loop, machine: RoomCallChannel(client: RoomClient(endpoint: endpoint, transport: .webSocket, seed: 21), room: "dc"))
        func describe(_ make: () throws -> String) rethrows -> String {
            description = try make()
            return description
        }
        signaling.onEvent = { event in
            do {
                switch event {
                case .partnerArrived:
                    signaling.send(.offer(try describe { try local.peer.createOffer(now: loop.now()) }))
                case .signal(.offer(let sdp)):
                    try local.peer.setRemoteOffer(sdp, now: loop.now())
                    signaling.send(.answer(try describe { try local.peer.createAnswer(now: loop.now()) }))
                case .signal(.answer(let sdp)):
                    try local.peer.setRemoteAnswer(sdp, now: loop.now())
                case .signal(.candidate(_, _, let candidate)):
                    _ = local.peer.addRemoteCandidate(candidate, now: loop.now())
                case .signal(.stats(let json)):
                    browser = try BrowserStats(json: json)
                case .signal(.error(let message)):
                    failure = "the page: \(message)"
                case .refused(let why), .closed(let why):
                    failure = "room: \(why)"
                default:
                    break
                }
            } catch {
                failure = "\(event): \(error)"
            }
            local.drive()
        }
        local.drive()
        guard loop.run(until: { local.peer.isGatheringComplete }, timeout: .seconds(5)) else { throw ExternalToolError("gathering") }
        let page = "http://\(server.address)/peer?rooms=dc&audio=0&video=0&data=from-chromium"
        var chromium: ChromiumPartner?
        defer { chromium?.stop() }
        if rtcswarmOffers {
            // The first member offers when the second comes.
            signaling.run()
            guard loop.run(until: { server.machine.memberCount == 1 || failure != nil }, timeout: .seconds(5)) else { throw ExternalToolError("rtcswarm did not join") }
            chromium = try ChromiumPartner(page: page, fps: 30, log: log)
        } else {
            chromium = try ChromiumPartner(page: page, fps: 30, log: log)
            guard loop.run(until: { server.machine.memberCount == 1 }, timeout: .seconds(15)) else { throw ExternalToolError("the page did not join") }
            signaling.run()
        }

        var exchange = Exchange()
        let done = loop.run(until: {
            exchange.react(to: local)
            return failure != nil || exchange.isComplete
        }, timeout: .seconds(30))
        if let failure { throw ExternalToolError(failure) }
        guard done else { throw ExternalToolError("data exchange incomplete: \(exchange), events \(local.events.suffix(6))") }
        signaling.send(.stop(drainMs: 300))
        guard loop.run(until: { browser != nil || failure != nil }, timeout: .seconds(10)), let browser else {
            throw ExternalToolError(failure ?? "the page sent no stats")
        }
        let application = description.components(separatedBy: "\r\nm=").first { $0.hasPrefix("application") } ?? ""
        return Figures(ours: try exchange.channel(exchange.ours), theirs: try exchange.channel(exchange.theirs),
                       echoesIntact: exchange.intact, echoesCorrupt: exchange.corrupt, applicationSection: "m=" + application, browser: browser)
    }

    /// rtcswarm's side of the exchange, reacting to the peer's events as they come.
    struct Exchange: CustomStringConvertible {
        var handled = 0
        var dtlsDone: Instant?
        var ours: UInt16?
        var theirs: UInt16?
        var channels: [UInt16: Channel] = [:]
        var expected = ChromiumDataChannelCall.messages
        var intact = 0
        var corrupt = 0
        var echoed = 0

        var isComplete: Bool { intact + corrupt == ChromiumDataChannelCall.messages.count && echoed == ChromiumDataChannelCall.messages.count }
        var description: String { "ours \(ours.map(String.init) ?? "-") (\(intact) intact, \(corrupt) corrupt), theirs \(theirs.map(String.init) ?? "-") (\(echoed) echoed)" }

        func channel(_ id: UInt16?) throws -> Channel {
            guard let id, let channel = channels[id] else { throw ExternalToolError("a channel did not open: \(self)") }
            return channel
        }

        mutating func react(to local: LoopPeer) {
            let now = local.loop.now()
            while handled < local.events.count {
                let event = local.events[handled]
                let at = local.eventTimes[handled]
                handled += 1
                switch event {
                case .phaseCompleted(.dtls, let done): dtlsDone = done
                case .dataChannel(.associationUp):
                    ours = try? local.peer.openDataChannel(DataChannelOptions(label: "from-rtcswarm"), now: now)
                case .dataChannel(.channelOpen(let opened)):
                    let openMs = dtlsDone.map { Double((at - $0).nanoseconds) / 1e6 } ?? -1
                    channels[opened.id] = Channel(label: opened.options.label, id: Int(opened.id), openMs: openMs)
                    if opened.id == ours {
                        for message in expected { send(message.bytes, isString: message.isString, on: opened.id, local) }
                    } else {
                        theirs = opened.id
                    }
                case .dataChannel(.message(let message)):
                    channels[message.channel]?.messagesReceived += 1
                    channels[message.channel]?.bytesReceived += message.bytes.count
                    if message.channel == ours {
                        let sent = expected.isEmpty ? nil : expected.removeFirst()
                        if let sent, sent.bytes == message.bytes, sent.isString == message.isString { intact += 1 } else { corrupt += 1 }
                    } else {
                        send(message.bytes, isString: message.isString, on: message.channel, local)
                        echoed += 1
                    }
                default:
                    break
                }
            }
            local.drive()
        }

        private mutating func send(_ bytes: [UInt8], isString: Bool, on channel: UInt16, _ local: LoopPeer) {
            guard (try? local.peer.sendData(bytes, isString: isString, on: channel, now: local.loop.now())) != nil else { return }
            channels[channel]?.messagesSent += 1
            channels[channel]?.bytesSent += bytes.count
        }
    }
}
