/// Reads the `FrameCode` block code back from a decoded picture of any size: the
/// published one, a downscaled copy (4x works from 640x360 up), or what a browser or SFU
/// re-encoded.
public enum FrameCodeReader {
    /// Luma samples read per cell side (at most); the mean of the cell's central half.
    static let samplesPerSide = 8

    /// The index and capture time in `image`, or nil when there is no valid code (too
    /// small, damaged beyond the threshold, or a CRC mismatch).
    public static func read(_ image: I420Image) -> FrameCode? {
        let (width, height) = (image.width, image.height)
        guard width >= FrameCode.columns * 2, height >= FrameCode.rowDivisor * 2 else { return nil }
        let threshold = (Int(FrameCode.one) + Int(FrameCode.zero)) / 2
        var payload = [UInt8](repeating: 0, count: FrameCode.cellCount / 8)
        image.data.withUnsafeBufferPointer { luma in
            for cell in 0..<FrameCode.cellCount {
                let (xs, ys) = FrameCode.cellBounds(cell, width: width, height: height)
                let mean = centreMean(luma, width: width, xs: xs, ys: ys)
                if mean > threshold { payload[cell / 8] |= 1 << (7 - UInt8(cell % 8)) }
            }
        }
        return FrameCode(payload: payload)
    }

    /// The mean luma over the central half of a cell, sampled on a grid.
    private static func centreMean(_ luma: UnsafeBufferPointer<UInt8>, width: Int, xs: Range<Int>, ys: Range<Int>) -> Int {
        let x0 = xs.lowerBound + xs.count / 4, x1 = max(x0 + 1, xs.upperBound - xs.count / 4)
        let y0 = ys.lowerBound + ys.count / 4, y1 = max(y0 + 1, ys.upperBound - ys.count / 4)
        let stepX = max(1, (x1 - x0) / samplesPerSide), stepY = max(1, (y1 - y0) / samplesPerSide)
        var sum = 0, count = 0
        for y in stride(from: y0, to: y1, by: stepY) {
            let row = y * width
            for x in stride(from: x0, to: x1, by: stepX) {
                sum += Int(luma[row + x])
                count += 1
            }
        }
        return sum / max(count, 1)
    }
}
