import RTCBase

/// One WebSocket frame (RFC 6455 section 5.2) with its payload unmasked.
public struct WebSocketFrame: Hashable, Sendable {
    /// Frame opcodes (RFC 6455 section 5.2); 0x3-0x7 and 0xB-0xF are reserved.
    public enum Opcode: UInt8, Sendable {
        case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA

        /// Close, ping and pong (section 5.5).
        public var isControl: Bool { rawValue & 0x8 != 0 }
    }

    public var fin: Bool
    public var opcode: Opcode
    /// The masking key (section 5.3) the frame was or will be sent with; nil if unmasked.
    public var maskingKey: UInt32?
    public var payload: [UInt8]

    public init(fin: Bool = true, opcode: Opcode, maskingKey: UInt32? = nil, payload: [UInt8]) {
        self.fin = fin
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payload = payload
    }

    /// Appends the frame's wire form: header, 7/16/64-bit length, key, masked payload.
    public func write(into out: inout [UInt8]) {
        out.append((fin ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        let count = payload.count
        if count < 126 {
            out.append(maskBit | UInt8(count))
        } else if count <= 0xffff {
            out.append(maskBit | 126)
            out.append(UInt8(count >> 8))
            out.append(UInt8(count & 0xff))
        } else {
            out.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(UInt64(count) >> UInt64(shift) & 0xff)) }
        }
        guard let key = maskingKey else {
            out.append(contentsOf: payload)
            return
        }
        let keyBytes = [UInt8(key >> 24), UInt8(key >> 16 & 0xff), UInt8(key >> 8 & 0xff), UInt8(key & 0xff)]
        out.append(contentsOf: keyBytes)
        let base = out.count
        out.append(contentsOf: payload)
        WebSocketFrame.applyMask(keyBytes, to: &out, from: base)
    }

    /// XORs `bytes[from...]` with the key, octet i with key[i % 4] (section 5.3).
    static func applyMask(_ key: [UInt8], to bytes: inout [UInt8], from start: Int) {
        bytes.withUnsafeMutableBufferPointer { buffer in
            var keyIndex = 0
            for index in start..<buffer.count {
                buffer[index] ^= key[keyIndex]
                keyIndex = (keyIndex + 1) & 3
            }
        }
    }

    /// The payload of a Close frame: status code then UTF-8 reason (section 5.5.1),
    /// the reason cut so the payload stays within 125 bytes.
    public static func closePayload(code: UInt16, reason: String) -> [UInt8] {
        var out = [UInt8(code >> 8), UInt8(code & 0xff)]
        var reasonBytes = Array(reason.utf8.prefix(123))
        while String(validating: reasonBytes, as: UTF8.self) == nil { reasonBytes.removeLast() }
        out.append(contentsOf: reasonBytes)
        return out
    }
}
