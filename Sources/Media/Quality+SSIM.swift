extension Quality {
    /// SSIM of the Y plane (Wang, Bovik, Sheikh and Simoncelli 2004, "Image quality
    /// assessment: from error visibility to structural similarity"), 0 to 1, 1 for identical
    /// planes; nil when the two pictures differ in size or are under 8 x 8.
    ///
    /// Computed the way x264 and ffmpeg's `ssim` filter compute it, so the figure can be
    /// checked against `ffmpeg -lavfi ssim`: the plane is cut into 4 x 4 blocks (a right or
    /// bottom remainder is left out), each 8 x 8 window of 2 x 2 neighbouring blocks (windows
    /// overlap by 4 pixels) gets the SSIM of its 64 pixel pairs from their sums, with x264's
    /// constants (C1 = (0.01 * 255)^2 x 64 and C2 = (0.03 * 255)^2 x 64 x 63, rounded), and the
    /// plane's SSIM is the mean over windows. Two rows of block sums are kept at a time.
    public static func ssimY(_ decoded: I420Image, reference: I420Image) -> Double? {
        guard decoded.width == reference.width, decoded.height == reference.height else { return nil }
        let width = decoded.width, blocksWide = width / 4, blocksHigh = decoded.height / 4
        guard blocksWide >= 2, blocksHigh >= 2 else { return nil }
        // Per block: sum of a, sum of b, sum of a^2 + b^2, sum of a * b; the row above, this row.
        var above = [Int](repeating: 0, count: blocksWide * 4), below = above
        var total = 0.0
        decoded.data.withUnsafeBufferPointer { a in
            reference.data.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return }
                for blockRow in 0..<blocksHigh {
                    swap(&above, &below)
                    below.withUnsafeMutableBufferPointer { sums in
                        blockSums(a, b, width: width, row: blockRow, blocksWide: blocksWide, into: sums.baseAddress!)
                    }
                    guard blockRow > 0 else { continue }
                    above.withUnsafeBufferPointer { top in
                        below.withUnsafeBufferPointer { bottom in
                            total += windowsSsim(top.baseAddress!, bottom.baseAddress!, windows: blocksWide - 1)
                        }
                    }
                }
            }
        }
        return total / Double((blocksWide - 1) * (blocksHigh - 1))
    }

    /// x264's constants for 8-bit samples: (0.01 * 255)^2 * 64 and (0.03 * 255)^2 * 64 * 63.
    static let ssimC1 = 416.0, ssimC2 = 235_963.0

    /// The four sums of every 4 x 4 block in block row `row`, four Ints per block.
    private static func blockSums(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, width: Int, row: Int, blocksWide: Int,
                                  into sums: UnsafeMutablePointer<Int>) {
        // While loops, not ranges: a debug build (the tests') runs a range's iterator as calls.
        var block = 0
        while block < blocksWide {
            var sa = 0, sb = 0, squares = 0, products = 0
            var index = row * 4 * width + block * 4
            for _ in 0..<4 {
                let p0 = Int(a[index]), p1 = Int(a[index + 1]), p2 = Int(a[index + 2]), p3 = Int(a[index + 3])
                let q0 = Int(b[index]), q1 = Int(b[index + 1]), q2 = Int(b[index + 2]), q3 = Int(b[index + 3])
                sa += p0 + p1 + p2 + p3
                sb += q0 + q1 + q2 + q3
                squares += p0 * p0 + p1 * p1 + p2 * p2 + p3 * p3 + q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3
                products += p0 * q0 + p1 * q1 + p2 * q2 + p3 * q3
                index += width
            }
            (sums[block * 4], sums[block * 4 + 1], sums[block * 4 + 2], sums[block * 4 + 3]) = (sa, sb, squares, products)
            block += 1
        }
    }

    /// The summed SSIM of the 8 x 8 windows of two neighbouring block rows: each window's
    /// sums are its four blocks', its variances and covariance 64 times the true ones, set
    /// against the sums' products (the means' products times 64^2).
    private static func windowsSsim(_ top: UnsafePointer<Int>, _ bottom: UnsafePointer<Int>, windows: Int) -> Double {
        var total = 0.0
        for window in 0..<windows {
            let i = window * 4
            let sa = Double(top[i] + top[i + 4] + bottom[i] + bottom[i + 4])
            let sb = Double(top[i + 1] + top[i + 5] + bottom[i + 1] + bottom[i + 5])
            let squares = Double(top[i + 2] + top[i + 6] + bottom[i + 2] + bottom[i + 6])
            let products = Double(top[i + 3] + top[i + 7] + bottom[i + 3] + bottom[i + 7])
            let variances = squares * 64 - sa * sa - sb * sb
            let covariance = products * 64 - sa * sb
            total += (2 * sa * sb + ssimC1) * (2 * covariance + ssimC2) / ((sa * sa + sb * sb + ssimC1) * (variances + ssimC2))
        }
        return total
    }
}
