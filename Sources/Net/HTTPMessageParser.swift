import RTCBase

extension ParseError.Code {
    /// The start line and fields (or the trailers) exceed `HTTPLimits.maxHeaderBytes`.
    public static let headerTooLarge = ParseError.Code("HTTP header section too large")
    /// The body exceeds `HTTPLimits.maxBodyBytes`.
    public static let bodyTooLarge = ParseError.Code("HTTP body too large")
}

/// Limits that keep a peer from making a parser buffer without end.
public struct HTTPLimits: Hashable, Sendable {
    /// Bytes of start line plus fields (and, separately, of trailers).
    public var maxHeaderBytes: Int
    /// Bytes of decoded body.
    public var maxBodyBytes: Int
    /// Number of fields.
    public var maxHeaderFields: Int

    public init(maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 8 * 1024 * 1024, maxHeaderFields: Int = 100) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderFields = maxHeaderFields
    }
}

/// The incremental HTTP/1.1 message parser behind `HTTPRequestParser` and
/// `HTTPResponseParser` (RFC 9112 sections 2 to 7).
///
/// Bytes are appended as they arrive, in pieces of any size; `next` returns a message once
/// its last byte is in. Lines may end in CRLF or a bare LF (RFC 9112 section 2.2). After an
/// error the parser stays failed and rethrows the same error.
struct HTTPMessageParser: Sendable {
    /// The three parts of the start line, fields, and how the body is framed.
    struct Head: Sendable {
        var startLine: (String, String, String)
        var headers: HTTPHeaders
    }

    struct Message: Sendable {
        var head: Head
        var body: [UInt8]
        var trailers: HTTPHeaders
    }

    /// How the body of the message being read ends (RFC 9112 section 6.3).
    enum Framing: Sendable {
        case none
        case length(Int)
        case chunked
        case untilEOF
    }

    private enum State: Sendable {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case untilEOF
        case failed(ParseError)
    }

    let limits: HTTPLimits
    private var buffer: [UInt8] = []
    /// Index of the first unconsumed byte in `buffer`.
    private var start = 0
    /// Where the search for the next line feed resumes.
    private var scan = 0
    /// How far (from `start`) the search for the end of a field block has got, and where
    /// (from `start`) its current line begins.
    private var blockScanned = 0
    private var blockLineStart = 0
    private var state = State.head
    private var head: Head?
    private var body: [UInt8] = []
    private var trailers = HTTPHeaders()

    init(limits: HTTPLimits) { self.limits = limits }

    /// Whether a message has started (its head or part of its body is in).
    var hasPartialMessage: Bool {
        if case .head = state { return buffer[start...].contains { $0 != 0x0d && $0 != 0x0a } }
        if case .failed = state { return false }
        return true
    }

    mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 4096 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            scan -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The buffered bytes not yet consumed (after a protocol switch), and forgets them.
    mutating func takeRemaining() -> [UInt8] {
        defer {
            buffer = []
            start = 0
            scan = 0
        }
        return Array(buffer[start...])
    }

    /// The next complete message, or nil when more bytes are needed. `framing` decides,
    /// from a parsed head, how its body is delimited.
    mutating func next(framing: (Head) throws(ParseError) -> Framing) throws(ParseError) -> Message? {
        do {
            return try step(framing: framing)
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// The input ended: a body running until EOF is complete; anything else partial is an error.
    mutating func finish() throws(ParseError) -> Message? {
        switch state {
        case .untilEOF:
            state = .head
            return takeMessage()
        case .failed(let error):
            throw error
        case .head where !hasPartialMessage:
            return nil
        default:
            let error = ParseError.truncated("HTTP message cut off by end of input")
            state = .failed(error)
            throw error
        }
    }

    private mutating func step(framing: (Head) throws(ParseError) -> Framing) throws(ParseError) -> Message? {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .head:
                guard let parsed = try readHead() else { return nil }
                head = parsed
                switch try framing(parsed) {
                case .none: state = .fixed(remaining: 0)
                case .length(let count):
                    guard count <= limits.maxBodyBytes else {
                        throw ParseError(.bodyTooLarge, "Content-Length \(count) exceeds \(limits.maxBodyBytes)")
                    }
                    state = .fixed(remaining: count)
                case .chunked: state = .chunkSize
                case .untilEOF: state = .untilEOF
                }
            case .fixed(let remaining):
                let take = min(remaining, buffer.count - start)
                body.append(contentsOf: buffer[start..<start + take])
                consume(take)
                guard remaining == take else {
                    state = .fixed(remaining: remaining - take)
                    return nil
                }
                state = .head
                return takeMessage()
            case .chunkSize:
                guard let line = try readLine(limit: 1024, what: "chunk size line") else { return nil }
                let size = try HTTPMessageParser.chunkSize(line)
                guard body.count + size <= limits.maxBodyBytes else {
                    throw ParseError(.bodyTooLarge, "chunked body exceeds \(limits.maxBodyBytes) bytes")
                }
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let take = min(remaining, buffer.count - start)
                body.append(contentsOf: buffer[start..<start + take])
                consume(take)
                guard remaining == take else {
                    state = .chunkData(remaining: remaining - take)
                    return nil
                }
                state = .chunkDataEnd
            case .chunkDataEnd:
                guard let line = try readLine(limit: 2, what: "chunk end") else { return nil }
                guard line.isEmpty else { throw .invalid("chunk data not followed by CRLF") }
                state = .chunkSize
            case .trailers:
                guard let lines = try readFieldBlock() else { return nil }
                trailers = try HTTPMessageParser.fields(lines, limit: limits.maxHeaderFields)
                state = .head
                return takeMessage()
            case .untilEOF:
                guard body.count + buffer.count - start <= limits.maxBodyBytes else {
                    throw ParseError(.bodyTooLarge, "body exceeds \(limits.maxBodyBytes) bytes")
                }
                body.append(contentsOf: buffer[start...])
                consume(buffer.count - start)
                return nil
            }
        }
    }

    private mutating func takeMessage() -> Message? {
        guard let head else { return nil }
        defer {
            self.head = nil
            body = []
            trailers = HTTPHeaders()
        }
        return Message(head: head, body: body, trailers: trailers)
    }

    private mutating func consume(_ count: Int) {
        start += count
        scan = max(scan, start)
    }

    /// One line without its line ending, or nil if its end has not arrived.
    private mutating func readLine(limit: Int, what: String) throws(ParseError) -> ArraySlice<UInt8>? {
        while scan < buffer.count, buffer[scan] != 0x0a { scan += 1 }
        guard scan < buffer.count else {
            guard buffer.count - start <= limit else { throw ParseError(.invalidValue, "\(what) longer than \(limit) bytes") }
            return nil
        }
        var end = scan
        if end > start && buffer[end - 1] == 0x0d { end -= 1 }
        let line = buffer[start..<end]
        guard line.count <= limit else { throw ParseError(.invalidValue, "\(what) longer than \(limit) bytes") }
        scan += 1
        start = scan
        return line
    }

    /// Lines up to an empty line (the fields of a head or the trailers), or nil if the
    /// empty line has not arrived. Nothing is consumed until the block is complete; the
    /// search resumes where it stopped, so byte-by-byte input stays linear.
    private mutating func readFieldBlock() throws(ParseError) -> [ArraySlice<UInt8>]? {
        var index = start + blockScanned
        var lineStart = start + blockLineStart
        var end: Int?
        while index < buffer.count {
            if buffer[index] == 0x0a {
                let length = index - lineStart
                if length == 0 || (length == 1 && buffer[lineStart] == 0x0d) {
                    end = index + 1
                    break
                }
                lineStart = index + 1
            }
            index += 1
        }
        guard let end else {
            blockScanned = index - start
            blockLineStart = lineStart - start
            if blockScanned > limits.maxHeaderBytes {
                throw ParseError(.headerTooLarge, "more than \(limits.maxHeaderBytes) bytes without an empty line")
            }
            return nil
        }
        guard end - start <= limits.maxHeaderBytes + 2 else {
            throw ParseError(.headerTooLarge, "more than \(limits.maxHeaderBytes) bytes of fields")
        }
        let lines = buffer[start..<lineStart].split(separator: 0x0a, omittingEmptySubsequences: false).dropLast().map { line in
            line.last == 0x0d ? line.dropLast() : line
        }
        blockScanned = 0
        blockLineStart = 0
        start = end
        scan = end
        return lines
    }

    private mutating func readHead() throws(ParseError) -> Head? {
        // RFC 9112 section 2.2: ignore empty lines before the start line.
        if blockScanned == 0 {
            while start < buffer.count, buffer[start] == 0x0d || buffer[start] == 0x0a { consume(1) }
        }
        guard let lines = try readFieldBlock(), let first = lines.first else { return nil }
        let parts = first.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].count > 0, parts[1].count > 0 else {
            throw .invalid("start line \(String(decoding: first.prefix(80), as: UTF8.self)) is not METHOD TARGET VERSION or VERSION STATUS REASON")
        }
        let third = parts.count > 2 ? String(decoding: parts[2], as: UTF8.self) : ""
        let headers = try HTTPMessageParser.fields(lines.dropFirst(), limit: limits.maxHeaderFields)
        return Head(startLine: (String(decoding: parts[0], as: UTF8.self), String(decoding: parts[1], as: UTF8.self), third),
                    headers: headers)
    }

    /// `name: OWS value OWS` lines (RFC 9112 section 5). Whitespace before the colon
    /// and obsolete line folding are rejected (section 5.1 and 5.2).
    static func fields(_ lines: some Collection<ArraySlice<UInt8>>, limit: Int) throws(ParseError) -> HTTPHeaders {
        guard lines.count <= limit else { throw ParseError(.headerTooLarge, "more than \(limit) fields") }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
                throw .invalid("field line without a name and colon")
            }
            let name = line[line.startIndex..<colon]
            guard name.allSatisfy(isTokenByte) else { throw .invalid("field name with a space or separator") }
            let value = line[(colon + 1)...]
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7f) }) else {
                throw .invalid("control character in field \(String(decoding: name, as: UTF8.self))")
            }
            headers.add(String(decoding: name, as: UTF8.self), String(String(decoding: value, as: UTF8.self).trimmingASCIISpaces()))
        }
        return headers
    }

    /// `chunk-size [; ext]` in hex (RFC 9112 section 7.1); extensions are ignored.
    static func chunkSize(_ line: ArraySlice<UInt8>) throws(ParseError) -> Int {
        var size = 0
        var digits = 0
        for byte in line {
            guard let value = Hex.value(byte) else {
                guard digits > 0, byte == UInt8(ascii: ";") || byte == 0x20 || byte == 0x09 else {
                    throw .invalid("chunk size is not hexadecimal")
                }
                break
            }
            digits += 1
            guard digits <= 15 else { throw ParseError(.bodyTooLarge, "chunk size with more than 15 hex digits") }
            size = size << 4 | Int(value)
        }
        guard digits > 0 else { throw .invalid("empty chunk size") }
        return size
    }

    /// tchar of RFC 9110 section 5.6.2.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        if PercentEncoding.isUnreserved(byte) { return true }
        return "!#$%&'*+^`|".utf8.contains(byte)
    }
}
