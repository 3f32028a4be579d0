import RTCBase

extension SessionDescription {
    /// Parses a session description (RFC 8866 5, 9): `v=`, `o=`, `s=`, session-level
    /// lines, then media sections, each line ending in CRLF (or LF).
    ///
    /// Throws a `ParseError` whose message names the 1-based line number and the line.
    public static func parse(_ text: String) throws(ParseError) -> SessionDescription {
        let bytes = Array(text.utf8)
        var parser = Parser()
        var lineNumber = 0
        var start = 0
        var crlf: Bool?
        while start < bytes.count {
            lineNumber += 1
            var end = start
            var controls = 0
            while end < bytes.count && bytes[end] != 0x0a {
                if bytes[end] == 0 || bytes[end] == 0x0d { controls += 1 }
                end += 1
            }
            let next = end + 1
            let endsInCR = end > start && bytes[end - 1] == 0x0d
            if endsInCR {
                end -= 1
                controls -= 1
            }
            if crlf == nil { crlf = endsInCR }
            let line = String(decoding: bytes[start..<end], as: UTF8.self)
            start = next
            do throws(ParseError) {
                if controls > 0 { throw .invalid("line holds a NUL or a bare CR") }
                try parser.take(line)
            } catch {
                let shown = line.count > 80 ? line.prefix(80) + "..." : Substring(line)
                throw ParseError(error.code, "SDP line \(lineNumber) \"\(shown)\": \(error.message)")
            }
        }
        do throws(ParseError) {
            return try parser.finish(lineEnding: crlf == false ? .lf : .crlf)
        } catch {
            throw ParseError(error.code, "SDP line \(lineNumber + 1) (end): \(error.message)")
        }
    }

    /// Parses UTF-8 bytes (an HTTP body, a fuzz input); invalid UTF-8 is a ParseError.
    public static func parse(bytes: some Collection<UInt8>) throws(ParseError) -> SessionDescription {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalid("SDP is not valid UTF-8")
        }
        return try parse(text)
    }
}

/// Line-by-line state of `SessionDescription.parse`: the fixed `v=`, `o=`, `s=` prefix,
/// then session lines until the first `m=`.
private struct Parser {
    var version: Int?
    var origin: Origin?
    var sessionName: String?
    var sessionLines: [SDPLine] = []
    var media: [MediaDescription] = []

    mutating func take(_ line: String) throws(ParseError) {
        let utf8 = line.utf8
        guard utf8.count >= 2, let type = utf8.first, type >= 0x61, type <= 0x7a,
            utf8[utf8.index(after: utf8.startIndex)] == 0x3d
        else { throw .invalid("not a '<letter>=<value>' line") }
        let value = line[utf8.index(utf8.startIndex, offsetBy: 2)...]
        guard version != nil else {
            guard line == "v=0" else { throw .invalid("expected 'v=0' first") }
            version = 0
            return
        }
        guard origin != nil else {
            guard type == 0x6f else { throw .invalid("expected an o= line") }
            origin = try Origin(parsing: value)
            return
        }
        guard sessionName != nil else {
            guard type == 0x73 else { throw .invalid("expected an s= line") }
            sessionName = String(value)
            return
        }
        switch type {
        case 0x6d:
            media.append(try MediaDescription(parsingMediaLine: value))
        case 0x76, 0x6f, 0x73:
            throw .invalid("\(line.prefix(2)) may appear only once, at the start")
        default:
            let parsed = try SDPLine(parsing: line, type: type, value: value)
            if media.isEmpty {
                sessionLines.append(parsed)
            } else {
                media[media.count - 1].lines.append(parsed)
            }
        }
    }

    func finish(lineEnding: SessionDescription.LineEnding) throws(ParseError) -> SessionDescription {
        guard let origin, let sessionName else { throw .truncated("description ends before v=, o= and s=") }
        return SessionDescription(
            origin: origin, sessionName: sessionName, lines: sessionLines, media: media, lineEnding: lineEnding)
    }
}
