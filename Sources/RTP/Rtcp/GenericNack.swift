import RTCBase

/// Generic NACK, transport-layer feedback FMT 1 (RFC 4585 6.2.1).
///
/// Each feedback control item is a packet ID (PID) and a 16-bit bitmask of following
/// lost packets (BLP): bit i set means PID + i + 1 is lost too.
public struct GenericNack: Equatable, Sendable {
    /// One FCI entry.
    public struct Item: Equatable, Sendable {
        public var packetId: UInt16
        public var lostBitmask: UInt16
        public init(packetId: UInt16, lostBitmask: UInt16) {
            self.packetId = packetId
            self.lostBitmask = lostBitmask
        }
    }

    public static let format: UInt8 = 1

    public var senderSsrc: UInt32
    public var mediaSsrc: UInt32
    public var items: [Item]

    public init(senderSsrc: UInt32, mediaSsrc: UInt32, items: [Item]) {
        self.senderSsrc = senderSsrc
        self.mediaSsrc = mediaSsrc
        self.items = items
    }

    /// Builds the PID+BLP list for `lost` sequence numbers, given in sending order
    /// (oldest first, wrap allowed): each item covers its PID and the 16 numbers after
    /// it. Repeated numbers are covered once.
    public init<Lost: Sequence>(senderSsrc: UInt32, mediaSsrc: UInt32, lost: Lost) where Lost.Element == UInt16 {
        var items: [Item] = []
        for sequence in lost {
            if var last = items.last {
                let distance = sequence &- last.packetId
                if distance == 0 { continue }
                if distance <= 16 {
                    last.lostBitmask |= 1 << (distance - 1)
                    items[items.count - 1] = last
                    continue
                }
            }
            items.append(Item(packetId: sequence, lostBitmask: 0))
        }
        self.init(senderSsrc: senderSsrc, mediaSsrc: mediaSsrc, items: items)
    }

    /// Every sequence number the items name, in item order.
    public var lostSequenceNumbers: [UInt16] {
        var lost: [UInt16] = []
        for item in items {
            lost.append(item.packetId)
            for bit in 0..<16 where item.lostBitmask & (1 << bit) != 0 {
                lost.append(item.packetId &+ UInt16(bit + 1))
            }
        }
        return lost
    }

    /// Reads the body that follows `header` (FMT 1 of PT 205).
    public init(header: RtcpHeader, body reader: inout ByteReader) throws(ParseError) {
        senderSsrc = try reader.readU32("NACK sender SSRC")
        mediaSsrc = try reader.readU32("NACK media SSRC")
        items = []
        while reader.remaining >= 4 {
            items.append(Item(packetId: try reader.readU16("NACK PID"), lostBitmask: try reader.readU16("NACK BLP")))
        }
        guard !items.isEmpty else { throw .invalid("NACK without FCI") }
    }

    /// Appends the packet to `writer` (padded to 32 bits, length field filled in).
    public func write(to writer: inout ByteWriter) {
        let start = RtcpHeader.begin(count: Self.format, packetType: RtcpHeader.transportFeedback, to: &writer)
        writer.writeU32(senderSsrc)
        writer.writeU32(mediaSsrc)
        for item in items {
            writer.writeU16(item.packetId)
            writer.writeU16(item.lostBitmask)
        }
        RtcpHeader.finish(at: start, to: &writer)
    }
}
