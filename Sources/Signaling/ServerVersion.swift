import RTCBase

/// A media server's name and version from its own API, for the report and the interop
/// matrix: SRS's `/api/v1/versions` (`data.version`) and Janus's `/info`
/// (`version_string`).
public enum ServerVersion {
    public static let srsPath = "/api/v1/versions"
    /// Janus's info endpoint under its API root (`/janus` -> `/janus/info`).
    public static func janusPath(root: String) -> String { (root.hasSuffix("/") ? root : root + "/") + "info" }

    /// "SRS 7.0.18", or nil when the body is not SRS's answer.
    public static func srs(_ body: String) -> String? {
        guard let value = try? JSONValue(parsing: body), value["code"]?.integerValue == 0,
              let version = value["data"]?["version"]?.stringValue else { return nil }
        return "SRS \(version)"
    }

    /// "Janus 1.1.2", or nil when the body is not Janus's server_info.
    public static func janus(_ body: String) -> String? {
        guard let value = try? JSONValue(parsing: body), value["janus"]?.stringValue == "server_info",
              let version = value["version_string"]?.stringValue else { return nil }
        return "Janus \(version)"
    }
}
