import RTCBase

/// SRS's own figures from its HTTP API (TARGETS.md: `/api/v1/summaries` and
/// `/api/v1/streams/?count=N`, with the trailing slash, else SRS answers 302), reduced to
/// the numbers a report puts beside the client figures.
public enum SRSStatistics {
    /// The paths to poll.
    public static let summariesPath = "/api/v1/summaries"
    public static let streamsPath = "/api/v1/streams/"
    public static let streamsQuery = "count=10000"

    /// From a summaries body: SRS's CPU and memory, its connections, and its byte counters
    /// (totals: the caller turns two samples into rates). Nil when SRS said `code` != 0 or
    /// the body is not SRS's.
    public static func summary(_ body: String) -> [String: Double]? {
        guard let value = try? JSONValue(parsing: body), value["code"]?.integerValue == 0,
              let own = value["data"]?["self"], let system = value["data"]?["system"] else { return nil }
        var figures: [String: Double] = [:]
        figures["cpu_pct"] = own["cpu_percent"]?.doubleValue
        figures["mem_mb"] = own["mem_kbyte"]?.doubleValue.map { $0 / 1024 }
        figures["connections"] = system["conn_srs"]?.doubleValue
        figures["recv_bytes"] = system["srs_recv_bytes"]?.doubleValue
        figures["send_bytes"] = system["srs_send_bytes"]?.doubleValue
        return figures
    }

    /// From a streams body: how many streams SRS holds and how many clients they have, and
    /// of the streams named in `own` (the run's): how many have a live publisher
    /// (`run_publishers`) and how many other clients play them (`run_players`). SRS lists
    /// a stream's publisher among its `clients`.
    public static func streams(_ body: String, own: Set<String> = []) -> [String: Double]? {
        guard let value = try? JSONValue(parsing: body), value["code"]?.integerValue == 0,
              let streams = value["streams"]?.arrayValue else { return nil }
        let clients = streams.compactMap { $0["clients"]?.doubleValue }.reduce(0, +)
        var figures = ["streams": Double(streams.count), "clients": clients]
        guard !own.isEmpty else { return figures }
        let ours = streams.filter { $0["name"]?.stringValue.map(own.contains) == true }
        let publishers = ours.filter { $0["publish"]?["active"]?.boolValue == true }.count
        let ourClients = ours.compactMap { $0["clients"]?.doubleValue }.reduce(0, +)
        figures["run_publishers"] = Double(publishers)
        figures["run_players"] = max(0, ourClients - Double(publishers))
        return figures
    }
}
