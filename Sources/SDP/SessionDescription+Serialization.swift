extension SessionDescription {
    /// The description as text, every line followed by `lineEnding` (RFC 8866 5).
    public func serialize() -> String {
        var text = ""
        text.reserveCapacity(2048)
        func add(_ line: String) {
            text += line
            text += lineEnding.rawValue
        }
        add("v=\(version)")
        add("o=\(origin)")
        add("s=\(sessionName)")
        for line in lines { add(line.text) }
        for section in media {
            add("m=\(section.mediaLine)")
            for line in section.lines { add(line.text) }
        }
        return text
    }
}

extension SessionDescription: CustomStringConvertible {
    public var description: String { serialize() }
}
