import RTCBase

/// Packet status chunks of transport-wide CC feedback
/// (draft-holmer-rmcat-transport-wide-cc-extensions-01 3.1.2-3.1.4).
extension TransportCcFeedback {
    /// The packet status symbols (3.1.1); 3 is reserved.
    enum Status: UInt8 {
        case notReceived = 0
        case smallDelta = 1
        case largeDelta = 2

        init(delta: Int16?) {
            guard let delta else {
                self = .notReceived
                return
            }
            self = (0...255).contains(delta) ? .smallDelta : .largeDelta
        }
    }

    /// Run-length chunks hold up to 2^13 - 1 equal statuses.
    static let maximumRunLength = 0x1fff
    /// Runs this long or longer go in a run-length chunk instead of a vector.
    static let minimumRunLength = 7

    /// Reads chunks until `count` statuses are known. Vector symbols past `count` are
    /// padding and ignored.
    static func readStatuses(count: Int, from reader: inout ByteReader) throws(ParseError) -> [Status] {
        var statuses: [Status] = []
        statuses.reserveCapacity(count)
        while statuses.count < count {
            let chunk = try reader.readU16("TWCC packet status chunk")
            let left = count - statuses.count
            if chunk & 0x8000 == 0 {
                // Run length chunk: T=0 | S (2) | run length (13).
                let status = try status(UInt8(chunk >> 13 & 0x3))
                let run = Int(chunk & 0x1fff)
                guard run > 0 else { throw .invalid("TWCC run length of zero") }
                statuses.append(contentsOf: repeatElement(status, count: min(run, left)))
            } else if chunk & 0x4000 == 0 {
                // Status vector chunk, one-bit symbols: T=1 | S=0 | 14 symbols.
                for bit in (0..<14).reversed().prefix(left) {
                    statuses.append(chunk >> bit & 1 == 0 ? .notReceived : .smallDelta)
                }
            } else {
                // Status vector chunk, two-bit symbols: T=1 | S=1 | 7 symbols.
                for symbol in (0..<7).reversed().prefix(left) {
                    statuses.append(try status(UInt8(chunk >> (2 * symbol) & 0x3)))
                }
            }
        }
        return statuses
    }

    private static func status(_ value: UInt8) throws(ParseError) -> Status {
        guard let status = Status(rawValue: value) else { throw .invalid("TWCC reserved packet status 3") }
        return status
    }

    /// Writes `statuses` as chunks: a run-length chunk for runs of at least
    /// `minimumRunLength` equal statuses, else a one-bit vector of 14 when no large delta
    /// is among them, else a two-bit vector of 7.
    static func writeChunks(_ statuses: [Status], to writer: inout ByteWriter) {
        var index = 0
        while index < statuses.count {
            let first = statuses[index]
            var run = 1
            while index + run < statuses.count, run < maximumRunLength, statuses[index + run] == first { run += 1 }
            if run >= minimumRunLength {
                writer.writeU16(UInt16(first.rawValue) << 13 | UInt16(run))
                index += run
                continue
            }
            let next14 = statuses[index..<min(index + 14, statuses.count)]
            if !next14.contains(.largeDelta) {
                var chunk: UInt16 = 0x8000
                for (position, status) in next14.enumerated() where status == .smallDelta {
                    chunk |= 1 << (13 - position)
                }
                writer.writeU16(chunk)
                index += next14.count
            } else {
                var chunk: UInt16 = 0xC000
                for (position, status) in statuses[index..<min(index + 7, statuses.count)].enumerated() {
                    chunk |= UInt16(status.rawValue) << (2 * (6 - position))
                }
                writer.writeU16(chunk)
                index += min(7, statuses.count - index)
            }
        }
    }
}
