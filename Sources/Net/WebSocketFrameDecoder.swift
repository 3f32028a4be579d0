import RTCBase

/// Incremental decoder of WebSocket frames (RFC 6455 section 5.2).
///
/// Checks what a single frame can break: reserved bits (no extension is negotiated),
/// reserved opcodes, control frames longer than 125 bytes or fragmented (section 5.5),
/// masking in the wrong direction (section 5.1), the 64-bit length's top bit, and a
/// frame larger than `maxFrameSize` (close code 1009) before its payload is buffered.
public struct WebSocketFrameDecoder: Sendable {
    /// Whether frames must be masked (a server reading a client) or must not be.
    public let expectMasked: Bool
    public let maxFrameSize: Int
    private var buffer: [UInt8] = []
    private var start = 0

    public init(expectMasked: Bool, maxFrameSize: Int) {
        self.expectMasked = expectMasked
        self.maxFrameSize = maxFrameSize
    }

    /// Received bytes, in pieces of any size.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0 && start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil when more bytes are needed.
    public mutating func next() throws(WebSocketError) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start]
        let second = buffer[start + 1]
        guard first & 0x70 == 0 else { throw WebSocketError(WebSocketError.protocolError, "reserved bits set without an extension") }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0f) else {
            throw WebSocketError(WebSocketError.protocolError, "reserved opcode \(first & 0x0f)")
        }
        let fin = first & 0x80 != 0
        let masked = second & 0x80 != 0
        guard masked == expectMasked else {
            throw WebSocketError(WebSocketError.protocolError, expectMasked ? "client frame not masked" : "server frame masked")
        }
        var headerLength = 2
        var length = Int(second & 0x7f)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            guard buffer[start + 2] & 0x80 == 0 else {
                throw WebSocketError(WebSocketError.protocolError, "64-bit length with the top bit set")
            }
            var wide: UInt64 = 0
            for index in 2..<10 { wide = wide << 8 | UInt64(buffer[start + index]) }
            guard wide <= UInt64(maxFrameSize) else {
                throw WebSocketError(WebSocketError.messageTooBig, "frame of \(wide) bytes exceeds \(maxFrameSize)")
            }
            length = Int(wide)
            headerLength = 10
        }
        if opcode.isControl {
            guard fin else { throw WebSocketError(WebSocketError.protocolError, "fragmented control frame") }
            guard length <= 125 else { throw WebSocketError(WebSocketError.protocolError, "control frame of \(length) bytes") }
        }
        guard length <= maxFrameSize else {
            throw WebSocketError(WebSocketError.messageTooBig, "frame of \(length) bytes exceeds \(maxFrameSize)")
        }
        let keyLength = masked ? 4 : 0
        guard available >= headerLength + keyLength + length else { return nil }
        var key: [UInt8] = []
        var keyValue: UInt32?
        if masked {
            key = Array(buffer[start + headerLength..<start + headerLength + 4])
            keyValue = key.reduce(0) { $0 << 8 | UInt32($1) }
        }
        let payloadStart = start + headerLength + keyLength
        var payload = Array(buffer[payloadStart..<payloadStart + length])
        if masked { WebSocketFrame.applyMask(key, to: &payload, from: 0) }
        start = payloadStart + length
        return WebSocketFrame(fin: fin, opcode: opcode, maskingKey: keyValue, payload: payload)
    }

    /// Bytes buffered but not yet decoded.
    public var bufferedBytes: Int { buffer.count - start }
}
