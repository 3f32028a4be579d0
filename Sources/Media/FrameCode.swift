import RTCBase

/// The frame identity drawn into every generated picture: a block code of 80 black or
/// white cells carrying the frame index, the capture time and a CRC.
///
/// Layout (independent of resolution, so it survives scaling): the top quarter of the
/// picture is a grid of 20 columns x 4 rows of cells, each `width/20` by `height/16`
/// luma samples. Cell `i` (row-major from the top left) holds bit `i` of 10 bytes, most
/// significant bit first: the index (32 bits, big-endian), the capture time in
/// milliseconds of the monotonic clock modulo 2^32 (32 bits), and CRC-16/CCITT-FALSE
/// (polynomial 0x1021, initial value 0xFFFF) over those 8 bytes. A one is luma 235 and a
/// zero luma 16, with neutral chroma; a reader thresholds the mean of each cell's centre.
public struct FrameCode: Hashable, Sendable, CustomStringConvertible {
    /// The frame index modulo 2^32.
    public var index: UInt32
    /// `captureTime.nanoseconds / 1_000_000` modulo 2^32 (wraps every 49.7 days).
    public var captureMilliseconds: UInt32

    public init(index: UInt32, captureMilliseconds: UInt32) {
        self.index = index
        self.captureMilliseconds = captureMilliseconds
    }

    /// The code for frame `index` captured at `captureTime`.
    public init(index: Int, captureTime: Instant) {
        self.index = UInt32(truncatingIfNeeded: index)
        self.captureMilliseconds = UInt32(truncatingIfNeeded: captureTime.nanoseconds / 1_000_000)
    }

    public var description: String { "frame \(index) @\(captureMilliseconds)ms" }

    static let columns = 20
    static let rows = 4
    /// Cells of the grid; each row of cells is `height / rowDivisor` samples tall.
    static let cellCount = columns * rows
    static let rowDivisor = 16
    static let one: UInt8 = 235
    static let zero: UInt8 = 16

    /// The 10 bytes the cells carry.
    var payload: [UInt8] {
        var writer = ByteWriter(capacity: 10)
        writer.writeU32(index)
        writer.writeU32(captureMilliseconds)
        writer.writeU16(Self.crc16(writer.bytes))
        return writer.take()
    }

    /// Decodes 10 payload bytes, or nil when the CRC does not match.
    init?(payload: [UInt8]) {
        var reader = ByteReader(payload)
        guard let index = try? reader.readU32(), let time = try? reader.readU32(),
              let crc = try? reader.readU16(), crc == Self.crc16(Array(payload[0..<8]))
        else { return nil }
        self.init(index: index, captureMilliseconds: time)
    }

    /// CRC-16/CCITT-FALSE.
    static func crc16(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 {
                crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
            }
        }
        return crc
    }

    /// The luma rectangle of cell `cell` in a picture of `width` x `height`.
    static func cellBounds(_ cell: Int, width: Int, height: Int) -> (x: Range<Int>, y: Range<Int>) {
        let column = cell % columns, row = cell / columns
        let x = (column * width / columns)..<((column + 1) * width / columns)
        let y = (row * height / rowDivisor)..<((row + 1) * height / rowDivisor)
        return (x, y)
    }

    /// Paints the code over the top quarter of `image`, row by row.
    func draw(into image: inout I420Image) {
        let bits = payload
        let (width, height) = (image.width, image.height)
        let chromaWidth = image.chromaWidth
        image.withMutablePlanes { y, u, v in
            for cell in 0..<Self.cellCount {
                let bit = bits[cell / 8] >> (7 - UInt8(cell % 8)) & 1
                let (xs, ys) = Self.cellBounds(cell, width: width, height: height)
                let level = bit == 1 ? Self.one : Self.zero
                for row in ys {
                    (y + row * width + xs.lowerBound).update(repeating: level, count: xs.count)
                }
                let chromaX = xs.lowerBound / 2, chromaCount = (xs.upperBound + 1) / 2 - chromaX
                for row in (ys.lowerBound / 2)..<((ys.upperBound + 1) / 2) {
                    (u + row * chromaWidth + chromaX).update(repeating: 128, count: chromaCount)
                    (v + row * chromaWidth + chromaX).update(repeating: 128, count: chromaCount)
                }
            }
        }
    }
}
