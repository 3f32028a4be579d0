import Foundation
import RTCBase

/// The textured scene behind `VideoSource` for one frame size: a picture 1/8 larger than
/// the frame in each direction, of which each frame shows a window that pans back and
/// forth, plus a box that moves across the lower part.
///
/// The texture is a sum of one-dimensional patterns along x, y and both diagonals (smooth
/// waves and smoothed seeded noise), scaled to the frame size so that every resolution
/// shows the same scene. Keyframes must code all of it; delta frames mostly code motion.
struct VideoCanvas: Sendable {
    let width: Int
    let height: Int
    private let marginX: Int
    private let marginY: Int
    private let luma: [UInt8]
    private let chromaU: [UInt8]
    private let chromaV: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        marginX = (width / 16) * 2
        marginY = (height / 16) * 2
        let (canvasWidth, canvasHeight) = (width + marginX, height + marginY)
        var generator = SeededGenerator(seed: 0x7e57_9a77e2)
        luma = Self.texture(width: canvasWidth, height: canvasHeight, scale: width,
                            base: 128, amplitude: 34, generator: &generator)
        chromaU = Self.texture(width: canvasWidth / 2, height: canvasHeight / 2, scale: width / 2,
                               base: 120, amplitude: 14, generator: &generator)
        chromaV = Self.texture(width: canvasWidth / 2, height: canvasHeight / 2, scale: width / 2,
                               base: 136, amplitude: 14, generator: &generator)
    }

    /// The scene for frame `index`, without the block code.
    func picture(index: Int) -> I420Image {
        var image = I420Image(width: width, height: height)
        let offsetX = Self.triangle(index * 2, period: marginX)
        let offsetY = Self.triangle(index * 2, period: marginY)
        image.withMutablePlanes { y, u, v in
            Self.copyWindow(luma, canvasWidth: width + marginX, into: y, width: width, height: height,
                            x: offsetX, y: offsetY)
            let (chromaWidth, chromaHeight) = (width / 2, height / 2)
            let canvasChroma = (width + marginX) / 2
            Self.copyWindow(chromaU, canvasWidth: canvasChroma, into: u, width: chromaWidth,
                            height: chromaHeight, x: offsetX / 2, y: offsetY / 2)
            Self.copyWindow(chromaV, canvasWidth: canvasChroma, into: v, width: chromaWidth,
                            height: chromaHeight, x: offsetX / 2, y: offsetY / 2)
            drawBox(index: index, y: y, u: u, v: v)
        }
        return image
    }

    /// A box of a sixth of the height, moving 1/120 of the width per frame, wrapping.
    private func drawBox(index: Int, y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>,
                         v: UnsafeMutablePointer<UInt8>) {
        let side = min(height / 12, width / 4) * 2
        let travel = width - side
        let left = ((index * width / 120) % max(travel, 1)) & ~1
        let top = ((height * 5 / 8) & ~1)
        for row in top..<(top + side) {
            (y + row * width + left).update(repeating: 210, count: side)
        }
        let chromaWidth = width / 2
        for row in (top / 2)..<((top + side) / 2) {
            (u + row * chromaWidth + left / 2).update(repeating: 80, count: side / 2)
            (v + row * chromaWidth + left / 2).update(repeating: 170, count: side / 2)
        }
    }

    /// Copies the window at (x, y) of a canvas plane into a frame plane, row by row.
    private static func copyWindow(_ canvas: [UInt8], canvasWidth: Int, into plane: UnsafeMutablePointer<UInt8>,
                                   width: Int, height: Int, x: Int, y: Int) {
        canvas.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<height {
                (plane + row * width).update(from: base + (row + y) * canvasWidth + x, count: width)
            }
        }
    }

    /// 0 up to `period` and back down, in steps of `value`.
    private static func triangle(_ value: Int, period: Int) -> Int {
        guard period > 0 else { return 0 }
        let phase = value % (2 * period)
        return phase <= period ? phase : 2 * period - phase
    }

    /// A plane of `width` x `height`: base + patterns along x, y and the two diagonals.
    /// `scale` is the frame width the pattern frequencies are relative to.
    private static func texture(width: Int, height: Int, scale: Int, base: Int, amplitude: Int,
                                generator: inout SeededGenerator) -> [UInt8] {
        let diagonalLength = width + height
        let alongX = pattern(length: width, scale: scale, amplitude: amplitude, generator: &generator)
        let alongY = pattern(length: height, scale: scale, amplitude: amplitude / 2, generator: &generator)
        let rising = pattern(length: diagonalLength, scale: scale, amplitude: amplitude, generator: &generator)
        let falling = pattern(length: diagonalLength, scale: scale, amplitude: amplitude / 2, generator: &generator)
        var plane = [UInt8](repeating: 0, count: width * height)
        plane.withUnsafeMutableBufferPointer { out in
            alongX.withUnsafeBufferPointer { ax in
                rising.withUnsafeBufferPointer { rs in
                    falling.withUnsafeBufferPointer { fs in
                        for row in 0..<height {
                            let rowBase = base + alongY[row]
                            let out = out.baseAddress! + row * width
                            let rs = rs.baseAddress! + row, fs = fs.baseAddress! + (height - 1 - row)
                            for x in 0..<width {
                                out[x] = UInt8(clamping: min(235, max(16, rowBase + ax[x] + rs[x] + fs[x])))
                            }
                        }
                    }
                }
            }
        }
        return plane
    }

    /// Three waves (2 to 24 cycles per frame width) plus seeded noise smoothed over ~1/320
    /// of the width, scaled to +-`amplitude`.
    private static func pattern(length: Int, scale: Int, amplitude: Int, generator: inout SeededGenerator) -> [Int] {
        let cycles = [Double.random(in: 2...4, using: &generator), Double.random(in: 7...11, using: &generator),
                      Double.random(in: 18...24, using: &generator)]
        let phases = cycles.map { _ in Double.random(in: 0...(2 * .pi), using: &generator) }
        let smoothing = max(1, scale / 320)
        let raw = (0..<(length + smoothing)).map { _ in generator.nextUnit() * 2 - 1 }
        var noise = [Double](repeating: 0, count: length)
        var running = raw[0..<smoothing].reduce(0, +)
        for index in 0..<length {
            noise[index] = running / Double(smoothing).squareRoot()
            running += raw[index + smoothing] - raw[index]
        }
        var values = [Int](repeating: 0, count: length)
        for index in 0..<length {
            let position = Double(index) / Double(scale) * 2 * .pi
            var wave = 0.0
            for (cycle, phase) in zip(cycles, phases) { wave += sin(position * cycle + phase) }
            values[index] = Int((wave / 3 * 0.6 + noise[index] * 0.4) * Double(amplitude))
        }
        return values
    }
}
