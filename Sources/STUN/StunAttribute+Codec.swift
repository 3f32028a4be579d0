import RTCBase

extension StunAttribute {
    /// The magic cookie (RFC 8489 5), also the XOR mask of addresses and ports.
    static let magicCookie: UInt32 = 0x2112_A442

    /// Writes the value (without type, length or padding) for `transactionID`'s message.
    func writeValue(to writer: inout ByteWriter, transactionID: TransactionID) {
        switch self {
        case .mappedAddress(let address):
            Self.writeAddress(address, to: &writer, xorWith: nil)
        case .xorMappedAddress(let address), .xorPeerAddress(let address), .xorRelayedAddress(let address):
            Self.writeAddress(address, to: &writer, xorWith: transactionID)
        case .username(let text), .realm(let text), .nonce(let text), .software(let text):
            writer.write(text.utf8)
        case .errorCode(let error):
            let code = min(max(error.code, 300), 699)
            writer.writeU16(0)
            writer.writeU8(UInt8(code / 100))
            writer.writeU8(UInt8(code % 100))
            writer.write(error.reason.utf8)
        case .unknownAttributes(let types):
            types.forEach { writer.writeU16($0) }
        case .priority(let value), .lifetime(let value):
            writer.writeU32(value)
        case .useCandidate:
            break
        case .iceControlling(let value), .iceControlled(let value):
            writer.writeU64(value)
        case .requestedTransport(let proto):
            writer.writeU8(proto)
            writer.writeZeros(3)
        case .channelNumber(let number):
            writer.writeU16(number)
            writer.writeU16(0)
        case .data(let bytes), .messageIntegrity(let bytes), .other(_, let bytes):
            writer.write(bytes)
        case .fingerprint(let value):
            writer.writeU32(value)
        }
    }

    /// Decodes the value of an attribute of `type`; throws when a known attribute has a
    /// malformed value.
    static func decode(type: UInt16, value: ArraySlice<UInt8>, in message: [UInt8],
                       transactionID: TransactionID) throws(ParseError) -> StunAttribute {
        // A reader over the value's range of the message: no copy.
        var reader = ByteReader(message, range: value.indices)
        switch type {
        case TypeCode.mappedAddress:
            return .mappedAddress(try readAddress(&reader, xorWith: nil))
        case TypeCode.xorMappedAddress:
            return .xorMappedAddress(try readAddress(&reader, xorWith: transactionID))
        case TypeCode.xorPeerAddress:
            return .xorPeerAddress(try readAddress(&reader, xorWith: transactionID))
        case TypeCode.xorRelayedAddress:
            return .xorRelayedAddress(try readAddress(&reader, xorWith: transactionID))
        case TypeCode.username:
            return .username(try text(value, max: 513, "USERNAME"))
        case TypeCode.realm:
            return .realm(try text(value, max: 763, "REALM"))
        case TypeCode.nonce:
            return .nonce(try text(value, max: 763, "NONCE"))
        case TypeCode.software:
            return .software(try text(value, max: 763, "SOFTWARE"))
        case TypeCode.errorCode:
            try reader.skip(2, "ERROR-CODE reserved")
            let errorClass = Int(try reader.readU8("ERROR-CODE class") & 0x07)
            let number = Int(try reader.readU8("ERROR-CODE number"))
            guard (3...6).contains(errorClass), number < 100 else {
                throw .invalid("ERROR-CODE \(errorClass)/\(number) out of range")
            }
            let reason = try text(reader.readRest(), max: 763, "ERROR-CODE reason")
            return .errorCode(StunErrorCode(code: errorClass * 100 + number, reason: reason))
        case TypeCode.unknownAttributes:
            guard value.count % 2 == 0 else { throw .invalid("UNKNOWN-ATTRIBUTES has an odd length") }
            var types: [UInt16] = []
            while !reader.isAtEnd { types.append(try reader.readU16()) }
            return .unknownAttributes(types)
        case TypeCode.priority:
            return .priority(try fixed(&reader, 4, "PRIORITY") { r throws(ParseError) in try r.readU32() })
        case TypeCode.lifetime:
            return .lifetime(try fixed(&reader, 4, "LIFETIME") { r throws(ParseError) in try r.readU32() })
        case TypeCode.useCandidate:
            guard value.isEmpty else { throw .invalid("USE-CANDIDATE carries a value") }
            return .useCandidate
        case TypeCode.iceControlling:
            return .iceControlling(try fixed(&reader, 8, "ICE-CONTROLLING") { r throws(ParseError) in try r.readU64() })
        case TypeCode.iceControlled:
            return .iceControlled(try fixed(&reader, 8, "ICE-CONTROLLED") { r throws(ParseError) in try r.readU64() })
        case TypeCode.requestedTransport:
            return .requestedTransport(try fixed(&reader, 4, "REQUESTED-TRANSPORT") { r throws(ParseError) in try r.readU8() })
        case TypeCode.channelNumber:
            return .channelNumber(try fixed(&reader, 4, "CHANNEL-NUMBER") { r throws(ParseError) in try r.readU16() })
        case TypeCode.data:
            return .data(Array(value))
        case TypeCode.messageIntegrity:
            guard value.count == 20 else { throw .invalid("MESSAGE-INTEGRITY is \(value.count) bytes, not 20") }
            return .messageIntegrity(Array(value))
        case TypeCode.fingerprint:
            return .fingerprint(try fixed(&reader, 4, "FINGERPRINT") { r throws(ParseError) in try r.readU32() })
        default:
            return .other(type: type, value: Array(value))
        }
    }

    /// A fixed-length value: exactly `length` bytes, of which `read` consumes the first.
    private static func fixed<T>(_ reader: inout ByteReader, _ length: Int, _ name: String,
                                 _ read: (inout ByteReader) throws(ParseError) -> T) throws(ParseError) -> T {
        guard reader.remaining == length else { throw .invalid("\(name) is \(reader.remaining) bytes, not \(length)") }
        return try read(&reader)
    }

    private static func text(_ value: ArraySlice<UInt8>, max: Int, _ name: String) throws(ParseError) -> String {
        guard value.count <= max else { throw ParseError(.tooLarge, "\(name) is \(value.count) bytes") }
        guard let text = String(validating: value, as: UTF8.self) else { throw .invalid("\(name) is not UTF-8") }
        return text
    }

    /// Family, port and address (RFC 8489 14.1), XORed with the magic cookie and the
    /// transaction ID when `xorWith` is given (14.2).
    private static func writeAddress(_ address: SocketAddress, to writer: inout ByteWriter, xorWith id: TransactionID?) {
        writer.writeU8(0)
        writer.writeU8(address.family == .ipv4 ? 0x01 : 0x02)
        let portMask = id == nil ? 0 : UInt16(magicCookie >> 16)
        writer.writeU16(address.port ^ portMask)
        let mask = id.map(xorMask) ?? []
        for (index, byte) in address.bytes.enumerated() {
            writer.writeU8(index < mask.count ? byte ^ mask[index] : byte)
        }
    }

    private static func readAddress(_ reader: inout ByteReader, xorWith id: TransactionID?) throws(ParseError) -> SocketAddress {
        try reader.skip(1, "address reserved byte")
        let family = try reader.readU8("address family")
        let length: Int
        switch family {
        case 0x01: length = 4
        case 0x02: length = 16
        default: throw .invalid("address family \(family)")
        }
        guard reader.remaining == 2 + length else { throw .invalid("address attribute length") }
        let portMask = id == nil ? 0 : UInt16(magicCookie >> 16)
        let port = try reader.readU16() ^ portMask
        var raw = Array(try reader.readSlice(length))
        if let id {
            let mask = xorMask(id)
            for index in raw.indices { raw[index] ^= mask[index] }
        }
        guard let address = SocketAddress(bytes: raw, port: port) else { throw .invalid("address bytes") }
        return address
    }

    /// The magic cookie followed by the transaction ID: 16 bytes of mask.
    private static func xorMask(_ id: TransactionID) -> [UInt8] {
        var writer = ByteWriter(capacity: 16)
        writer.writeU32(magicCookie)
        id.write(to: &writer)
        return writer.bytes
    }
}
