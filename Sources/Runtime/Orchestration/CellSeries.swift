import Metrics
import Report
import RoomServer

/// A cell's per-second series: one `TimeSample` a second from the workers' latest samples
/// (peers, bitrate, loss, NACKs, fps, freezes, jitter, busiest worker's CPU, relay times), the server's own
/// figures beside them, and a closing sample with the workers' final byte counts.
struct CellSeries {
    private(set) var samples: [TimeSample] = []
    private(set) var serverSamples: [ServerSample] = []
    private var bitrate = BitrateSeries()
    private var receive = ReceiveSeries()
    private var cpu = WorkerCPUSeries()
    private var lastRelayed = 0

    /// The sample at `t` seconds from the run's start.
    mutating func sample(at t: Double, from collector: CellCollector, server: RoomServerStream?, poller: ServerStatsPoller?) {
        let now = collector.latest.values
        var sample = TimeSample(tS: t, connectingPeers: now.reduce(0) { $0 + $1.connecting },
                                connectedPeers: now.reduce(0) { $0 + $1.connected }, failedPeers: now.reduce(0) { $0 + $1.failed },
                                receiveKbps: 0, sendKbps: 0, lagP99Ms: now.map(\.lagP99Ms).max() ?? 0)
        (sample.sendKbps, sample.receiveKbps) = bitrate.kbps(at: t, sent: now.reduce(0) { $0 + $1.bytesSent },
                                                             received: now.reduce(0) { $0 + $1.bytesReceived })
        receive.fill(&sample, totals: now.compactMap(\.receive).reduce(ReceiveTotals(), +))
        LiveJitter.fill(&sample, from: now.compactMap(\.jitter))
        sample.cpuPct = cpu.busiestPct(at: t, samples: collector.latest)
        sample.relays(collector.recentRelays)
        collector.recentRelays = Histogram()
        samples.append(sample)
        if let server {
            let stats = server.stats
            let values = ["connections": Double(stats.connections), "members": Double(server.machine.memberCount),
                          "messages_relayed_per_s": Double(stats.messagesRelayed - lastRelayed)]
            serverSamples.append(ServerSample(tS: t, values: values))
            collector.serverFigures(values)
            lastRelayed = stats.messagesRelayed
        }
        if let poller {
            if !poller.latest.isEmpty {
                serverSamples.append(ServerSample(tS: t, values: poller.latest))
                collector.serverFigures(poller.latest)
            }
            poller.poll()
        }
    }

    /// A closing sample at `t` with the workers' final byte counts: the samples lag the
    /// workers' own by up to a second, and the series must add up to every byte sent.
    mutating func close(at t: Double, from collector: CellCollector) {
        guard var closing = samples.last, t > closing.tS else { return }
        closing.tS = t
        let final = collector.finalBytes
        (closing.sendKbps, closing.receiveKbps) = bitrate.kbps(at: t, sent: final.sent, received: final.received)
        // Its stretch is a fraction of a second of peers stopping: no loss, NACK or fps figure.
        (closing.lossPct, closing.nacksPerS, closing.fps) = (nil, nil, nil)
        (closing.packetsExpected, closing.packetsLostFirstPass, closing.liveVideoStreams, closing.freezes) = (nil, nil, nil, nil)
        closing.relays(collector.recentRelays)  // what came since the last tick, not the last tick's again
        samples.append(closing)
    }
}
