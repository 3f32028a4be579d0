import RTCBase

/// The H.264 Annex-B byte stream format (ITU-T H.264 Annex B): NAL units separated by
/// start codes `00 00 01` or `00 00 00 01`, and the emulation prevention bytes of 7.4.1.
public enum AnnexB {
    /// The byte ranges of the NAL units in `bytes`, start codes and trailing zeros
    /// excluded. Bytes before the first start code are ignored; no start code gives [].
    /// With `last`, the walk ends at the first unit whose header byte it accepts: that unit
    /// is the last range and runs to the end of `bytes`, its own end never searched for
    /// (a reader who needs only what precedes an access unit's first slice skips the slices).
    public static func nalUnits(in bytes: [UInt8], last: ((UInt8) -> Bool)? = nil) -> [Range<Int>] {
        var units: [Range<Int>] = []
        var current = unitStart(in: bytes, from: 0)
        while let start = current?.unit {
            if let last, start < bytes.count, last(bytes[start]) {
                units.append(start..<bytes.count)
                break
            }
            let next = unitStart(in: bytes, from: start)
            let end = trimZeros(bytes, start, next?.code ?? bytes.count)
            if end > start { units.append(start..<end) }
            current = next
        }
        return units
    }

    /// The first start code at or after `index`: where its bytes begin (`code`) and where
    /// the NAL unit after it begins (`unit`); nil when there is none.
    private static func unitStart(in bytes: [UInt8], from index: Int) -> (code: Int, unit: Int)? {
        var index = index
        while index + 2 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 { return (index, index + 3) }
            index += bytes[index + 2] > 1 ? 3 : 1
        }
        return nil
    }

    private static func trimZeros(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Int {
        var end = end
        while end > start, bytes[end - 1] == 0 { end -= 1 }
        return end
    }

    /// The NAL unit type (H.264 7.3.1): the low 5 bits of the first byte.
    public static func nalType(_ unit: ArraySlice<UInt8>) -> UInt8? {
        unit.first.map { $0 & 0x1F }
    }

    /// The RBSP of a NAL unit payload: every `00 00 03` becomes `00 00` (H.264 7.4.1).
    public static func removeEmulationPrevention<Bytes: Collection>(_ payload: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var rbsp: [UInt8] = []
        rbsp.reserveCapacity(payload.count)
        var zeros = 0
        for byte in payload {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            rbsp.append(byte)
        }
        return rbsp
    }

    /// Inserts `03` wherever two zero bytes are followed by a byte <= 3 (H.264 7.4.1).
    public static func addEmulationPrevention(_ rbsp: [UInt8]) -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(rbsp.count + rbsp.count / 64 + 1)
        var zeros = 0
        for byte in rbsp {
            if zeros >= 2, byte <= 3 {
                payload.append(3)
                zeros = 0
            }
            zeros = byte == 0 ? zeros + 1 : 0
            payload.append(byte)
        }
        return payload
    }

    /// Splits a whole `.h264` file into access units (H.264 7.4.1.2.3): a new unit starts
    /// at an access unit delimiter, SPS, PPS or SEI, or at a slice whose
    /// `first_mb_in_slice` is 0, once the current unit holds a slice. Each unit is
    /// returned in Annex-B form with 4-byte start codes.
    public static func accessUnits(in bytes: [UInt8]) -> [[UInt8]] {
        var units: [[UInt8]] = []
        var current: [UInt8] = []
        var currentHasSlice = false
        for range in nalUnits(in: bytes) {
            let unit = bytes[range]
            let type = unit[unit.startIndex] & 0x1F
            let isSlice = type == 1 || type == 5
            let startsPicture = isSlice && unit.count > 1 && unit[unit.startIndex + 1] & 0x80 != 0
            let startsUnit = [6, 7, 8, 9].contains(type) || startsPicture
            if startsUnit, currentHasSlice {
                units.append(current)
                current = []
                currentHasSlice = false
            }
            current.append(contentsOf: [0, 0, 0, 1])
            current.append(contentsOf: unit)
            currentHasSlice = currentHasSlice || isSlice
        }
        if !current.isEmpty { units.append(current) }
        return units
    }
}
