import Foundation

/// What went wrong with a file, in a few words a person can act on: "no such file",
/// "permission denied", "is a folder". Foundation's own text for the same thing is a dump
/// (`Error Domain=NSCocoaErrorDomain Code=260 ... UserInfo={...}`), so callers print
/// `"\(path): \(FileProblem.describe(error))"` instead.
public enum FileProblem {
    public static func describe(_ error: any Error) -> String {
        if let decoding = error as? DecodingError { return describe(decoding) }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return posix(Int32(nsError.code)) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return posix(Int32(underlying.code))
        }
        guard nsError.domain == NSCocoaErrorDomain else { return "\(error)" }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileReadInapplicableStringEncoding: return "not UTF-8 text"
        case .fileWriteOutOfSpace: return "no space left on device"
        case .fileReadTooLarge: return "too large to read"
        default: return "cannot be read or written (error \(nsError.code))"
        }
    }

    /// A JSON document of the wrong shape: the key path and what is wrong, on one line.
    public static func describe(_ error: DecodingError) -> String {
        func at(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "" : "\(path.hasPrefix(".") ? String(path.dropFirst()) : path): "
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(at(context))missing key \"\(key.stringValue)\""
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(at(context))expected \(type)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(at(context))\(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func posix(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EISDIR: return "is a folder, not a file"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
