import Foundation
import RTCBase
import Scenario

extension ScenarioRunner {
    public enum Outcome: Equatable, Sendable {
        case passed
        case thresholdsFailed
        case harnessSaturated
        case interrupted
        /// Nothing could run: the reason in words a user can act on.
        case couldNotRun(String)
    }

    public struct Options {
        public var folder: URL
        public var version: String
        /// Worker processes; 1 runs the peers in this process.
        public var workers: Int
        /// The `rtcswarm` executable that `rtcswarm worker` children run (needed when workers > 1).
        public var workerExecutable: URL?
        /// Called about once a second with a one-line status.
        public var progress: (String) -> Void
        /// The part of the scenario this process runs (`run --shard I/N`); nil: all of it.
        public var shard: Shard?
        /// The wall-clock time every shard starts its first peers at (`--start-at`).
        public var startAt: Date?
        /// Where to serve live OpenMetrics figures while the run goes on (`--metrics-listen`).
        public var metricsListen: SocketAddress?
        /// How long after a cell to wait for one more scrape of its final figures (`--metrics-linger`).
        public var metricsLingerS = 0.0

        public init(folder: URL, version: String, workers: Int = 1, workerExecutable: URL? = nil, shard: Shard? = nil,
                    startAt: Date? = nil, metricsListen: SocketAddress? = nil, metricsLingerS: Double = 0,
                    progress: @escaping (String) -> Void) {
            self.folder = folder
            self.version = version
            self.workers = workers
            self.workerExecutable = workerExecutable
            self.shard = shard
            self.startAt = startAt
            self.metricsListen = metricsListen
            self.metricsLingerS = metricsLingerS
            self.progress = progress
        }
    }
}
