import RTCBase

/// The values of an Engine.IO v4 open packet (`0{...}`), as servers send them.
public struct EngineIOHandshake: Hashable, Sendable {
    public var sid: String
    public var upgrades: [String]
    /// Milliseconds between the server's pings.
    public var pingInterval: Int
    /// Milliseconds the server waits for a pong (and a client for the next ping, on top).
    public var pingTimeout: Int
    /// The largest packet the server accepts, in bytes.
    public var maxPayload: Int

    public init(sid: String, upgrades: [String] = [], pingInterval: Int = 25000, pingTimeout: Int = 20000,
                maxPayload: Int = 1_000_000) {
        self.sid = sid
        self.upgrades = upgrades
        self.pingInterval = pingInterval
        self.pingTimeout = pingTimeout
        self.maxPayload = maxPayload
    }

    /// In the member order the reference server uses.
    public var json: JSONValue {
        .object(["sid": .string(sid), "upgrades": .array(upgrades.map(JSONValue.string)),
                 "pingInterval": .integer(Int64(pingInterval)), "pingTimeout": .integer(Int64(pingTimeout)),
                 "maxPayload": .integer(Int64(maxPayload))])
    }

    init(json: JSONValue) throws(ParseError) {
        guard let sid = json["sid"]?.stringValue, let interval = json["pingInterval"]?.integerValue,
            let timeout = json["pingTimeout"]?.integerValue, interval > 0, timeout > 0, interval < 1 << 31, timeout < 1 << 31
        else { throw .invalid("Engine.IO open packet lacks sid, pingInterval or pingTimeout") }
        let upgrades = json["upgrades"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let maxPayload = json["maxPayload"]?.integerValue.map { Int(clamping: $0) } ?? 1_000_000
        self.init(sid: sid, upgrades: upgrades, pingInterval: Int(interval), pingTimeout: Int(timeout), maxPayload: maxPayload)
    }
}
