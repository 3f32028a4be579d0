import RTCBase

/// Chunk values on the wire (RFC 9260 3.3, RFC 3758 3.2). Lengths exclude padding; every
/// chunk and parameter is padded to 4 bytes.
extension SctpChunk {
    /// INIT parameters (RFC 9260 3.3.2.1, 3.3.3.1; RFC 3758 3.1; RFC 5061 4.2.7).
    enum Parameter {
        static let stateCookie: UInt16 = 7
        static let forwardTSNSupported: UInt16 = 0xC000
        static let supportedExtensions: UInt16 = 0x8008
    }

    static func parse(type: UInt8, flags: UInt8, value: inout ByteReader) throws(ParseError) -> SctpChunk {
        guard let kind = Kind(rawValue: type) else { return .unknown(type: type) }
        switch kind {
        case .data:
            let tsn = try value.readU32("TSN")
            let stream = try value.readU16("stream")
            let ssn = try value.readU16("SSN")
            let ppid = try value.readU32("PPID")
            guard value.remaining > 0 else { throw ParseError(.invalidValue, "DATA chunk without user data") }
            return .data(DataChunk(tsn: tsn, stream: stream, ssn: ssn, ppid: ppid, unordered: flags & 0x04 != 0,
                                   beginning: flags & 0x02 != 0, ending: flags & 0x01 != 0, payload: value.readRest()))
        case .initiate, .initAck:
            let chunk = try parseInit(&value)
            guard chunk.initiateTag != 0, chunk.outboundStreams > 0, chunk.inboundStreams > 0 else {
                throw ParseError(.invalidValue, "INIT with a zero tag or zero streams (RFC 9260 3.3.2)")
            }
            if kind == .initiate { return .initiate(chunk) }
            guard chunk.cookie != nil else { throw ParseError(.invalidValue, "INIT ACK without a state cookie") }
            return .initAck(chunk)
        case .sack:
            let cumulative = try value.readU32("cumulative TSN")
            let window = try value.readU32("a_rwnd")
            let gapCount = Int(try value.readU16("gap blocks"))
            let duplicateCount = Int(try value.readU16("duplicates"))
            var gaps: [(start: UInt16, end: UInt16)] = []
            gaps.reserveCapacity(gapCount)
            for _ in 0..<gapCount {
                let start = try value.readU16("gap start")
                let end = try value.readU16("gap end")
                guard start >= 1, start <= end else { throw ParseError(.invalidValue, "SACK gap \(start)-\(end)") }
                gaps.append((start, end))
            }
            var duplicates: [UInt32] = []
            for _ in 0..<duplicateCount { duplicates.append(try value.readU32("duplicate TSN")) }
            return .sack(SackChunk(cumulativeTSN: cumulative, advertisedWindow: window, gaps: gaps, duplicates: duplicates))
        case .heartbeat: return .heartbeat(info: Array(value.readRest()))
        case .heartbeatAck: return .heartbeatAck(info: Array(value.readRest()))
        case .abort: return .abort(reflected: flags & 1 != 0)
        case .shutdown: return .shutdown(cumulativeTSN: try value.readU32("cumulative TSN"))
        case .shutdownAck: return .shutdownAck
        case .error: return .error
        case .cookieEcho: return .cookieEcho(cookie: Array(value.readRest()))
        case .cookieAck: return .cookieAck
        case .shutdownComplete: return .shutdownComplete(reflected: flags & 1 != 0)
        case .forwardTSN:
            let cumulative = try value.readU32("new cumulative TSN")
            var streams: [(stream: UInt16, ssn: UInt16)] = []
            while value.remaining >= 4 { streams.append((try value.readU16("stream"), try value.readU16("SSN"))) }
            return .forwardTSN(ForwardTSNChunk(newCumulativeTSN: cumulative, streams: streams))
        }
    }

    private static func parseInit(_ value: inout ByteReader) throws(ParseError) -> InitChunk {
        var chunk = InitChunk(initiateTag: try value.readU32("initiate tag"), advertisedWindow: try value.readU32("a_rwnd"),
                              outboundStreams: try value.readU16("outbound streams"),
                              inboundStreams: try value.readU16("inbound streams"), initialTSN: try value.readU32("initial TSN"),
                              forwardTSN: false)
        while value.remaining >= 4 {
            let type = try value.readU16("parameter type")
            let length = Int(try value.readU16("parameter length"))
            guard length >= 4 else { throw ParseError(.invalidValue, "INIT parameter length \(length)") }
            let body = try value.readSlice(length - 4, "parameter value")
            try value.skip(min((4 - length % 4) % 4, value.remaining), "parameter padding")
            switch type {
            case Parameter.stateCookie: chunk.cookie = Array(body)
            case Parameter.forwardTSNSupported: chunk.forwardTSN = true
            case Parameter.supportedExtensions: if body.contains(Kind.forwardTSN.rawValue) { chunk.forwardTSN = true }
            default: break
            }
        }
        return chunk
    }

    func write(to writer: inout ByteWriter) {
        let start = writer.count
        var flags: UInt8 = 0
        writer.writeU32(0)
        let kind: Kind
        switch self {
        case .data(let data):
            kind = .data
            flags = (data.unordered ? 0x04 : 0) | (data.beginning ? 0x02 : 0) | (data.ending ? 0x01 : 0)
            writer.writeU32(data.tsn)
            writer.writeU16(data.stream)
            writer.writeU16(data.ssn)
            writer.writeU32(data.ppid)
            writer.write(data.payload)
        case .initiate(let chunk), .initAck(let chunk):
            if case .initiate = self { kind = .initiate } else { kind = .initAck }
            writer.writeU32(chunk.initiateTag)
            writer.writeU32(chunk.advertisedWindow)
            writer.writeU16(chunk.outboundStreams)
            writer.writeU16(chunk.inboundStreams)
            writer.writeU32(chunk.initialTSN)
            if chunk.forwardTSN {
                Self.writeParameter(Parameter.forwardTSNSupported, [], to: &writer)
                Self.writeParameter(Parameter.supportedExtensions, [Kind.forwardTSN.rawValue], to: &writer)
            }
            if let cookie = chunk.cookie { Self.writeParameter(Parameter.stateCookie, cookie, to: &writer) }
        case .sack(let sack):
            kind = .sack
            writer.writeU32(sack.cumulativeTSN)
            writer.writeU32(sack.advertisedWindow)
            writer.writeU16(UInt16(sack.gaps.count))
            writer.writeU16(UInt16(sack.duplicates.count))
            for gap in sack.gaps {
                writer.writeU16(gap.start)
                writer.writeU16(gap.end)
            }
            for duplicate in sack.duplicates { writer.writeU32(duplicate) }
        case .heartbeat(let info): kind = .heartbeat; writer.write(info)
        case .heartbeatAck(let info): kind = .heartbeatAck; writer.write(info)
        case .abort(let reflected): kind = .abort; flags = reflected ? 1 : 0
        case .shutdown(let cumulative): kind = .shutdown; writer.writeU32(cumulative)
        case .shutdownAck: kind = .shutdownAck
        case .error: kind = .error
        case .cookieEcho(let cookie): kind = .cookieEcho; writer.write(cookie)
        case .cookieAck: kind = .cookieAck
        case .shutdownComplete(let reflected): kind = .shutdownComplete; flags = reflected ? 1 : 0
        case .forwardTSN(let forward):
            kind = .forwardTSN
            writer.writeU32(forward.newCumulativeTSN)
            for entry in forward.streams {
                writer.writeU16(entry.stream)
                writer.writeU16(entry.ssn)
            }
        case .unknown(let type):
            writer.patchU32(UInt32(type) << 24 | 4, at: start)
            return
        }
        let length = writer.count - start
        writer.patchU32(UInt32(kind.rawValue) << 24 | UInt32(flags) << 16 | UInt32(length), at: start)
        writer.writeZeros((4 - length % 4) % 4)
    }

    private static func writeParameter(_ type: UInt16, _ value: [UInt8], to writer: inout ByteWriter) {
        writer.writeU16(type)
        writer.writeU16(UInt16(4 + value.count))
        writer.write(value)
        writer.writeZeros((4 - value.count % 4) % 4)
    }

    /// Bytes this chunk takes in a packet, padding included.
    var wireSize: Int {
        switch self {
        case .data(let data): return DataChunk.headerSize + (data.payload.count + 3) / 4 * 4
        case .sack(let sack): return 16 + 4 * sack.gaps.count + 4 * sack.duplicates.count
        case .forwardTSN(let forward): return 8 + 4 * forward.streams.count
        default:
            var writer = ByteWriter()
            write(to: &writer)
            return writer.count
        }
    }
}
