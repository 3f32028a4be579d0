/// The media type of an `m=` line (RFC 8866 5.14).
public enum MediaKind: Sendable, Hashable, CustomStringConvertible {
    case audio, video, application
    case other(String)

    public init(_ name: String) {
        switch name {
        case "audio": self = .audio
        case "video": self = .video
        case "application": self = .application
        default: self = .other(name)
        }
    }

    public var description: String {
        switch self {
        case .audio: return "audio"
        case .video: return "video"
        case .application: return "application"
        case .other(let name): return name
        }
    }
}
