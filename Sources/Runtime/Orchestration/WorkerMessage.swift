import Metrics
import Report

/// What a worker tells the coordinator, one JSON object per line on its standard output
/// (or directly, for a worker in the coordinator's own process).
public struct WorkerMessage: Codable, Sendable {
    public var peer: PeerRecord?
    public var sample: WorkerSample?
    public var result: WorkerResult?

    public init(peer: PeerRecord? = nil, sample: WorkerSample? = nil, result: WorkerResult? = nil) {
        self.peer = peer
        self.sample = sample
        self.result = result
    }
}

/// A worker's peers at one moment (one a second).
public struct WorkerSample: Codable, Sendable, Equatable {
    public var tS: Double
    public var connecting: Int
    public var connected: Int
    public var failed: Int
    public var lagP99Ms: Double
    /// UDP payload bytes the worker's sockets sent and received so far.
    public var bytesSent = 0
    public var bytesReceived = 0
    /// What the worker's peers have received so far (nil from older workers).
    public var receive: ReceiveTotals?
    /// CPU seconds the worker's process has spent so far (nil from older workers).
    public var cpuSeconds: Double?
    /// Relay times (`relay_ms`) of the room messages received since the previous sample.
    public var relays: Histogram?
    /// The jitter of the streams the worker's live calls receive now.
    public var jitter: LiveJitter?
    /// The peers by state, by group index (nil from older workers).
    public var groups: [Int: PeerStates]?
}

/// A worker's figures once its share of the run is over.
public struct WorkerResult: Codable, Sendable {
    public var metrics: MetricSet
    public var report: WorkerReport
    /// Set when a threshold with abort_on_fail failed in this worker.
    public var abortedBy: String?
    /// Frames this worker's encoders fell behind real time on (made later than their frame
    /// interval, or still unmade), of the frames due at their rates; and encoder failures.
    public var lateFrames: Int
    public var framesDue: Int
    public var encoderErrors: [String]
}
