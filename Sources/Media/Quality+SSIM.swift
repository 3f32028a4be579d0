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
    /// plane's SSIM is the mean over windows.
    public static func ssimY(_ decoded: I420Image, reference: I420Image) -> Double? {
        guard decoded.width == reference.width, decoded.height == reference.height else { return nil }
        let blocksWide = decoded.width / 4, blocksHigh = decoded.height / 4
        guard blocksWide >= 2, blocksHigh >= 2 else { return nil }
        let blocks = BlockSums.of(decoded, reference, blocksWide: blocksWide, blocksHigh: blocksHigh)
        var total = 0.0
        blocks.withUnsafeBufferPointer { blocks in
            for by in 0..<(blocksHigh - 1) {
                let top = by * blocksWide, bottom = top + blocksWide
                for bx in 0..<(blocksWide - 1) {
                    total += (blocks[top + bx] + blocks[top + bx + 1] + blocks[bottom + bx] + blocks[bottom + bx + 1]).windowSsim
                }
            }
        }
        return total / Double((blocksWide - 1) * (blocksHigh - 1))
    }
}

/// The sums over one 4 x 4 block (or a window of four) that SSIM needs: of the decoded
/// samples a, of the reference samples b, of a^2 + b^2 and of a * b.
private struct BlockSums {
    var a = 0, b = 0, squares = 0, products = 0

    static func + (x: BlockSums, y: BlockSums) -> BlockSums {
        BlockSums(a: x.a + y.a, b: x.b + y.b, squares: x.squares + y.squares, products: x.products + y.products)
    }

    /// Every 4 x 4 block's sums of the Y planes, row by row.
    static func of(_ decoded: I420Image, _ reference: I420Image, blocksWide: Int, blocksHigh: Int) -> [BlockSums] {
        var blocks: [BlockSums] = []
        blocks.reserveCapacity(blocksWide * blocksHigh)
        let width = decoded.width
        decoded.data.withUnsafeBufferPointer { a in
            reference.data.withUnsafeBufferPointer { b in
                for by in 0..<blocksHigh {
                    for bx in 0..<blocksWide {
                        var sums = BlockSums()
                        for y in (by * 4)..<(by * 4 + 4) {
                            let start = y * width + bx * 4
                            for index in start..<(start + 4) {
                                let p = Int(a[index]), q = Int(b[index])
                                sums.a += p
                                sums.b += q
                                sums.squares += p * p + q * q
                                sums.products += p * q
                            }
                        }
                        blocks.append(sums)
                    }
                }
            }
        }
        return blocks
    }

    /// x264's constants for 8-bit samples: (0.01 * 255)^2 * 64 and (0.03 * 255)^2 * 64 * 63.
    static let c1 = 416.0, c2 = 235_963.0

    /// SSIM of an 8 x 8 window from its sums: 64 times the variances and covariance, set
    /// against the sums' products (the means' products times 64^2).
    var windowSsim: Double {
        let (n, c1, c2) = (64.0, Self.c1, Self.c2)
        let (sa, sb) = (Double(a), Double(b))
        let variances = Double(squares) * n - sa * sa - sb * sb
        let covariance = Double(products) * n - sa * sb
        return (2 * sa * sb + c1) * (2 * covariance + c2) / ((sa * sa + sb * sb + c1) * (variances + c2))
    }
}
