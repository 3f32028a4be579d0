import RTCBase

extension StunMessage {
    /// The XOR applied to the CRC-32 in FINGERPRINT (RFC 8489 14.7): "STUN" in ASCII.
    static let fingerprintXor: UInt32 = 0x5354_554E

    /// Encodes the message (RFC 8489 5, 14): attributes padded to four bytes with zeros,
    /// then MESSAGE-INTEGRITY over everything before it when `integrityKey` is given
    /// (14.5), then FINGERPRINT when asked (14.7). Attributes `.messageIntegrity` and
    /// `.fingerprint` in `attributes` are skipped: they are computed here.
    public func encode(integrityKey: [UInt8]? = nil, fingerprint: Bool = false) -> [UInt8] {
        var writer = ByteWriter(capacity: 128)
        writer.writeU16(StunMethod.messageType(method, messageClass))
        writer.writeU16(0)
        writer.writeU32(StunAttribute.magicCookie)
        transactionID.write(to: &writer)
        for attribute in attributes {
            switch attribute {
            case .messageIntegrity, .fingerprint: continue
            default: Self.write(attribute, to: &writer, transactionID: transactionID)
            }
        }
        if let integrityKey {
            // The length covers the MESSAGE-INTEGRITY attribute but not what follows (14.5).
            writer.patchU16(UInt16(writer.count - 20 + 24), at: 2)
            let mac = StunKey.hmacSHA1(key: integrityKey, writer.bytes[...])
            writer.writeU16(StunAttribute.TypeCode.messageIntegrity)
            writer.writeU16(20)
            writer.write(mac)
        }
        if fingerprint {
            writer.patchU16(UInt16(writer.count - 20 + 8), at: 2)
            let crc = Crc32.checksum(writer.bytes, 0..<writer.count) ^ Self.fingerprintXor
            writer.writeU16(StunAttribute.TypeCode.fingerprint)
            writer.writeU16(4)
            writer.writeU32(crc)
        }
        writer.patchU16(UInt16(truncatingIfNeeded: writer.count - 20), at: 2)
        return writer.take()
    }

    private static func write(_ attribute: StunAttribute, to writer: inout ByteWriter, transactionID: TransactionID) {
        writer.writeU16(attribute.type)
        let lengthAt = writer.count
        writer.writeU16(0)
        attribute.writeValue(to: &writer, transactionID: transactionID)
        let length = writer.count - lengthAt - 2
        writer.patchU16(UInt16(truncatingIfNeeded: length), at: lengthAt)
        writer.writeZeros((4 - length % 4) % 4)
    }

    /// Decodes one STUN message that fills `bytes` exactly (a UDP datagram).
    ///
    /// Checks the header (RFC 8489 6.3: leading zero bits, magic cookie, length a multiple
    /// of four that matches the datagram) and FINGERPRINT when present (throws
    /// `.integrity` on a mismatch). Attributes after MESSAGE-INTEGRITY other than
    /// FINGERPRINT are ignored (14.5). MESSAGE-INTEGRITY is checked later with
    /// `verifyIntegrity(key:)`.
    public static func decode(_ bytes: [UInt8]) throws(ParseError) -> StunMessage {
        var reader = ByteReader(bytes)
        let type = try reader.readU16("STUN message type")
        guard type & 0xC000 == 0 else { throw .invalid("STUN leading bits are not zero") }
        let length = Int(try reader.readU16("STUN length"))
        guard try reader.readU32("magic cookie") == StunAttribute.magicCookie else { throw .invalid("no STUN magic cookie") }
        guard let transactionID = TransactionID(bytes: try reader.readSlice(12, "transaction ID")) else {
            throw .truncated("transaction ID")
        }
        guard length % 4 == 0 else { throw .invalid("STUN length \(length) is not a multiple of 4") }
        guard length == reader.remaining else { throw .invalid("STUN length \(length) but \(reader.remaining) bytes follow") }

        let (method, messageClass) = StunMethod.split(type)
        var message = StunMessage(method: method, messageClass: messageClass, transactionID: transactionID)
        var integrityOffset: Int?
        var sawFingerprint = false
        while !reader.isAtEnd {
            let start = reader.offset
            let attributeType = try reader.readU16("attribute type")
            let attributeLength = Int(try reader.readU16("attribute length"))
            let value = try reader.readSlice(attributeLength, "attribute value")
            try reader.skip((4 - attributeLength % 4) % 4, "attribute padding")
            guard !sawFingerprint else { throw .invalid("attribute after FINGERPRINT") }
            if attributeType == StunAttribute.TypeCode.fingerprint {
                sawFingerprint = true
                let attribute = try StunAttribute.decode(type: attributeType, value: value, in: bytes, transactionID: transactionID)
                guard case .fingerprint(let received) = attribute,
                      received == Crc32.checksum(bytes, 0..<start) ^ fingerprintXor
                else { throw ParseError(.integrity, "FINGERPRINT does not match") }
                message.attributes.append(attribute)
                continue
            }
            if integrityOffset != nil { continue }
            if attributeType == StunAttribute.TypeCode.messageIntegrity { integrityOffset = start }
            message.attributes.append(try StunAttribute.decode(type: attributeType, value: value, in: bytes, transactionID: transactionID))
        }
        message.received = Received(bytes: bytes, integrityOffset: integrityOffset)
        return message
    }

    /// Whether the received message carried MESSAGE-INTEGRITY.
    public var hasIntegrity: Bool { received?.integrityOffset != nil }

    /// Checks MESSAGE-INTEGRITY (RFC 8489 14.5): HMAC-SHA1 with `key` over the message up
    /// to the attribute, with the header length adjusted to end after it. False when the
    /// message has none, was not decoded, or the MAC differs.
    public func verifyIntegrity(key: [UInt8]) -> Bool {
        guard let received, let offset = received.integrityOffset,
              case .messageIntegrity(let mac)? = first(StunAttribute.TypeCode.messageIntegrity)
        else { return false }
        var covered = Array(received.bytes[0..<offset])
        let adjusted = UInt16(truncatingIfNeeded: offset - 20 + 24)
        covered[2] = UInt8(truncatingIfNeeded: adjusted >> 8)
        covered[3] = UInt8(truncatingIfNeeded: adjusted)
        let expected = StunKey.hmacSHA1(key: key, covered[...])
        // Constant time: every byte is compared whatever the first difference.
        return zip(expected, mac).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0 && expected.count == mac.count
    }
}
