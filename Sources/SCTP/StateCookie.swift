import COpenSSL
import RTCBase

/// The state cookie an INIT ACK carries (RFC 9260 5.1.3): what the responder needs to build
/// the association when the COOKIE ECHO comes back, so it keeps no state for an INIT alone.
/// Signed with HMAC-SHA256 under the association's secret; valid for `lifetime` (5.1.5).
struct StateCookie: Equatable, Sendable {
    var peer: InitChunk
    var localTag: UInt32
    var localInitialTSN: UInt32
    var created: Instant

    static let lifetime = Duration.seconds(60)
    private static let macSize = 32
    private static let bodySize = 4 + 4 + 2 + 2 + 4 + 1 + 4 + 4 + 8

    func seal(secret: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: Self.bodySize + Self.macSize)
        writer.writeU32(peer.initiateTag)
        writer.writeU32(peer.advertisedWindow)
        writer.writeU16(peer.outboundStreams)
        writer.writeU16(peer.inboundStreams)
        writer.writeU32(peer.initialTSN)
        writer.writeU8(peer.forwardTSN ? 1 : 0)
        writer.writeU32(localTag)
        writer.writeU32(localInitialTSN)
        writer.writeU64(UInt64(bitPattern: created.nanoseconds))
        writer.write(Self.mac(secret: secret, writer.bytes[...]))
        return writer.take()
    }

    /// The cookie's contents when its MAC is right and it is not stale; nil otherwise.
    static func open(_ bytes: [UInt8], secret: [UInt8], now: Instant) -> StateCookie? {
        guard bytes.count == bodySize + macSize,
              mac(secret: secret, bytes[0..<bodySize]) == Array(bytes[bodySize...]) else { return nil }
        var reader = ByteReader(bytes)
        guard let tag = try? reader.readU32(), let window = try? reader.readU32(), let outbound = try? reader.readU16(),
              let inbound = try? reader.readU16(), let initialTSN = try? reader.readU32(), let forward = try? reader.readU8(),
              let localTag = try? reader.readU32(), let localTSN = try? reader.readU32(), let created = try? reader.readU64()
        else { return nil }
        let cookie = StateCookie(
            peer: InitChunk(initiateTag: tag, advertisedWindow: window, outboundStreams: outbound, inboundStreams: inbound,
                            initialTSN: initialTSN, forwardTSN: forward == 1),
            localTag: localTag, localInitialTSN: localTSN, created: Instant(nanoseconds: Int64(bitPattern: created)))
        guard now - cookie.created <= lifetime else { return nil }
        return cookie
    }

    private static func mac(secret: [UInt8], _ data: ArraySlice<UInt8>) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: macSize)
        var length = UInt32(macSize)
        secret.withUnsafeBytes { key in
            data.withUnsafeBytes { body in
                _ = HMAC(EVP_sha256(), key.baseAddress, Int32(key.count),
                         body.baseAddress?.assumingMemoryBound(to: UInt8.self), body.count, &mac, &length)
            }
        }
        return mac
    }
}
