import RTCBase

extension SessionDescription {
    /// Parses a session description (RFC 8866 5, 9): `v=`, `o=`, `s=`, session-level
    /// lines, then media sections, each line ending in CRLF (or LF).
    ///
    /// Throws a `ParseError` whose message names the 1-based line number and the line.
    public static func parse(_ text: String) throws(ParseError) -> SessionDescription {
        var lines = text.utf8.split(separator: 0x0a, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        let crlf = lines.first?.last == 0x0d
        var parser = Parser()
        for (index, raw) in lines.enumerated() {
            let bytes = raw.last == 0x0d ? raw.dropLast() : raw
            let line = String(Substring(bytes))
            do throws(ParseError) {
                if bytes.contains(0) || bytes.contains(0x0d) { throw .invalid("line holds a NUL or a bare CR") }
                try parser.take(line)
            } catch {
                let shown = line.count > 80 ? line.prefix(80) + "..." : Substring(line)
                throw ParseError(error.code, "SDP line \(index + 1) \"\(shown)\": \(error.message)")
            }
        }
        do throws(ParseError) {
            return try parser.finish(lineEnding: crlf ? .crlf : .lf)
        } catch {
            throw ParseError(error.code, "SDP line \(lines.count + 1) (end): \(error.message)")
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
        let value = line.utf8.count >= 2 ? line.dropFirst(2) : ""
        guard version != nil else {
            guard line == "v=0" else { throw .invalid("expected 'v=0' first") }
            version = 0
            return
        }
        guard origin != nil else {
            guard line.hasPrefix("o=") else { throw .invalid("expected an o= line") }
            origin = try Origin(parsing: value)
            return
        }
        guard sessionName != nil else {
            guard line.hasPrefix("s=") else { throw .invalid("expected an s= line") }
            sessionName = String(value)
            return
        }
        if line.hasPrefix("m=") {
            media.append(try MediaDescription(parsingMediaLine: value))
            return
        }
        if line.hasPrefix("v=") || line.hasPrefix("o=") || line.hasPrefix("s=") {
            throw .invalid("\(line.prefix(2)) may appear only once, at the start")
        }
        let parsed = try SDPLine(parsing: line)
        if media.isEmpty {
            sessionLines.append(parsed)
        } else {
            media[media.count - 1].lines.append(parsed)
        }
    }

    func finish(lineEnding: SessionDescription.LineEnding) throws(ParseError) -> SessionDescription {
        guard let origin, let sessionName else { throw .truncated("description ends before v=, o= and s=") }
        return SessionDescription(
            origin: origin, sessionName: sessionName, lines: sessionLines, media: media, lineEnding: lineEnding)
    }
}
