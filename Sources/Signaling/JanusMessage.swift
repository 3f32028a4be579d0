import RTCBase

/// One JSON message from Janus's API (PROTOCOLS.md section 5): a request's direct reply
/// (`success`, `ack`, `error`) or an event from the long poll or the WebSocket (`event`,
/// `webrtcup`, `media`, `slowlink`, `hangup`, `detached`, `keepalive`). Ids are 64-bit.
struct JanusMessage: Sendable {
    /// The `janus` member: `success`, `ack`, `event`, `error`, `webrtcup`, ...
    var kind: String
    var transaction: String?
    /// The session the message is for (`session_id`).
    var sessionID: Int64?
    /// The handle the event is about.
    var sender: Int64?
    /// `data.id` of a `create` or `attach` success.
    var createdID: Int64?
    var plugin: String?
    /// `plugindata.data`: what the plugin said.
    var pluginData: JSONValue?
    /// `jsep.type` and `jsep.sdp`.
    var jsepType: String?
    var jsepSDP: String?
    /// Janus's own error (`error.code`, `error.reason`).
    var error: (code: Int64, reason: String)?
    /// The whole message, for notices.
    var json: JSONValue

    /// Reads one message; nil when it is not an object with a string `janus` member.
    init?(_ json: JSONValue) {
        guard let kind = json["janus"]?.stringValue else { return nil }
        self.kind = kind
        self.json = json
        transaction = json["transaction"]?.stringValue
        sessionID = json["session_id"]?.integerValue
        sender = json["sender"]?.integerValue
        createdID = json["data"]?["id"]?.integerValue
        plugin = json["plugindata"]?["plugin"]?.stringValue
        pluginData = json["plugindata"]?["data"]
        jsepType = json["jsep"]?["type"]?.stringValue
        jsepSDP = json["jsep"]?["sdp"]?.stringValue
        if kind == "error" {
            error = (json["error"]?["code"]?.integerValue ?? 0, json["error"]?["reason"]?.stringValue ?? json.serialized)
        }
    }

    /// Every message in a long-poll body or a WebSocket text message: one object, or an
    /// array of them (`?maxev=N`).
    static func messages(in body: [UInt8]) throws(ParseError) -> [JanusMessage] {
        let json = try JSONValue(parsing: body)
        let elements = json.arrayValue ?? [json]
        return elements.compactMap(JanusMessage.init)
    }

    /// A plugin's error (`error_code` and `error` in `plugindata.data`), in its words.
    var pluginError: String? {
        guard let data = pluginData, let code = pluginErrorCode else { return nil }
        return "\(plugin ?? "plugin") error \(code): \(data["error"]?.stringValue ?? data.serialized)"
    }

    /// The plugin's `error_code`, when its data carries one.
    var pluginErrorCode: Int64? { pluginData?["error_code"]?.integerValue }

    /// A plugin data member as a 64-bit id (room, feed).
    func pluginID(_ key: String) -> Int64? { pluginData?[key]?.integerValue }
}
