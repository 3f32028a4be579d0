import Media

/// Picture helpers for tests.
enum TestImages {
    /// Box-filter downscale by an integer factor (luma and chroma).
    static func boxDownscale(_ image: I420Image, by factor: Int) -> I420Image {
        var small = I420Image(width: image.width / factor, height: image.height / factor)
        for plane in I420Image.Plane.allCases {
            let (source, target) = (image.offset(plane), small.offset(plane))
            let (sourceStride, targetStride) = (image.stride(plane), small.stride(plane))
            for y in 0..<small.rows(plane) {
                for x in 0..<targetStride {
                    var sum = 0
                    for dy in 0..<factor {
                        let row = source + (y * factor + dy) * sourceStride + x * factor
                        for dx in 0..<factor { sum += Int(image.data[row + dx]) }
                    }
                    small.data[target + y * targetStride + x] = UInt8(sum / (factor * factor))
                }
            }
        }
        return small
    }
}
