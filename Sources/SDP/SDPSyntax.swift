import RTCBase

/// Strict lexical helpers shared by the SDP value parsers (RFC 8866 section 9 grammar).
///
/// Numbers must be written canonically (no sign, no leading zeros) so that every value
/// the parser accepts prints back to the same text.
enum SDPSyntax {
    /// Splits on single spaces; an empty token (two spaces in a row, a leading or trailing
    /// space) is an error, so that joining with " " gives the input back.
    static func tokens(_ text: Substring, _ what: String) throws(ParseError) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var index = start
        let utf8 = text.utf8
        while index != utf8.endIndex {
            if utf8[index] == 0x20 {
                guard index != start else { throw .invalid("\(what): empty field (stray space)") }
                parts.append(text[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        guard index != start else { throw .invalid("\(what): empty field (stray space)") }
        parts.append(text[start..<index])
        return parts
    }

    /// `text` with the whitespace real stacks write folded away, the way browsers read it
    /// (they split on spaces and drop empty fields): tabs count as spaces, a run of them
    /// is one space, and none is left at either end. Pion writes `a=rtcp-fb:102 nack `
    /// (trailing space). Text without any such whitespace comes back as it was.
    static func foldingWhitespace(_ text: Substring) -> Substring {
        var previousIsSpace = true
        var needsFolding = false
        for byte in text.utf8 {
            let isSpace = byte == 0x20 || byte == 0x09
            if byte == 0x09 || (isSpace && previousIsSpace) {
                needsFolding = true
                break
            }
            previousIsSpace = isSpace
        }
        guard needsFolding || previousIsSpace && !text.isEmpty else { return text }
        var folded: [UInt8] = []
        folded.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x09 {
                pendingSpace = !folded.isEmpty
                continue
            }
            if pendingSpace { folded.append(0x20) }
            pendingSpace = false
            folded.append(byte)
        }
        return Substring(String(decoding: folded, as: UTF8.self))
    }

    /// A canonical unsigned decimal that fits in `T`.
    static func integer<T: FixedWidthInteger & UnsignedInteger>(
        _ text: Substring, _ what: String, as type: T.Type = T.self
    ) throws(ParseError) -> T {
        var value: UInt64 = 0
        var digits = 0
        var leadingZero = false
        for byte in text.utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { throw .invalid("\(what) '\(text)' is not a number") }
            if digits == 0 { leadingZero = byte == 0x30 }
            digits += 1
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflow, !carry else { throw .invalid("\(what) '\(text)' is out of range") }
            value = sum
        }
        guard digits > 0 else { throw .invalid("\(what) is empty") }
        guard !leadingZero || digits == 1 else { throw .invalid("\(what) '\(text)' has leading zeros") }
        guard let result = T(exactly: value) else { throw .invalid("\(what) '\(text)' is out of range") }
        return result
    }

    /// A canonical decimal used as an `Int` in 0...maximum.
    static func int(_ text: Substring, _ what: String, max: Int = Int(Int32.max)) throws(ParseError) -> Int {
        let value = try integer(text, what, as: UInt64.self)
        guard value <= UInt64(max) else { throw .invalid("\(what) \(value) is above \(max)") }
        return Int(value)
    }

    /// An RTP payload type, 0...127 (RFC 3550 5.1).
    static func payloadType(_ text: Substring) throws(ParseError) -> UInt8 {
        UInt8(try int(text, "payload type", max: 127))
    }

    /// Splits `name:value` at the first colon; no colon gives a nil value.
    static func splitColon(_ text: Substring) -> (Substring, Substring?) {
        guard let colon = firstIndex(of: 0x3a, in: text) else { return (text, nil) }
        return (text[..<colon], text[text.utf8.index(after: colon)...])
    }

    /// The index of the first `byte` in `text`, scanning its UTF-8 view.
    static func firstIndex(of byte: UInt8, in text: Substring) -> Substring.Index? {
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            if utf8[index] == byte { return index }
            index = utf8.index(after: index)
        }
        return nil
    }

    /// Splits at the first space: `"96 opus/48000/2"` -> ("96", "opus/48000/2").
    static func splitSpace(_ text: Substring, _ what: String) throws(ParseError) -> (Substring, Substring) {
        guard let space = firstIndex(of: 0x20, in: text) else { throw .invalid("\(what): missing field") }
        let rest = text[text.utf8.index(after: space)...]
        guard !text[..<space].isEmpty, !rest.isEmpty else { throw .invalid("\(what): empty field") }
        return (text[..<space], rest)
    }

    /// A non-empty token without spaces.
    static func token(_ text: Substring, _ what: String) throws(ParseError) -> String {
        guard !text.isEmpty, firstIndex(of: 0x20, in: text) == nil else { throw .invalid("\(what) '\(text)' is not a token") }
        return String(text)
    }
}
