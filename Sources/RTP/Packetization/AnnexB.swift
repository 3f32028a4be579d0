/// H.264 Annex-B byte streams (ITU-T H.264 Annex B): NAL units after start codes.
public enum AnnexB {
    /// The start code the depacketizer writes before every NAL unit.
    public static let startCode: [UInt8] = [0, 0, 0, 1]

    /// The ranges of the NAL units in `stream`, between `00 00 01` start codes (a zero
    /// before one, as in `00 00 00 01`, and trailing zeros are not part of the NAL unit).
    /// Empty units are skipped; bytes before the first start code are ignored.
    public static func nalUnits(in stream: [UInt8]) -> [Range<Int>] {
        var units: [Range<Int>] = []
        var start: Int?
        var index = 0
        while index + 2 < stream.count {
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                if let start { append(start..<index, of: stream, to: &units) }
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        if let start { append(start..<stream.count, of: stream, to: &units) }
        return units
    }

    private static func append(_ range: Range<Int>, of stream: [UInt8], to units: inout [Range<Int>]) {
        var end = range.upperBound
        while end > range.lowerBound, stream[end - 1] == 0 { end -= 1 }
        if end > range.lowerBound { units.append(range.lowerBound..<end) }
    }
}
