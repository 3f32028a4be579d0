import RTCBase
/// A picture in I420 (YUV 4:2:0, 8 bits, planar): the format every encoder here takes and
/// every decoder here returns.
///
/// The three planes live one after another in `data` with no padding: Y (`width` per row,
/// `height` rows), then U and V (`chromaWidth` per row, `chromaHeight` rows), where the
/// chroma sizes round up for odd luma sizes.
public struct I420Image: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// Y, then U, then V, each row `stride(plane)` bytes long.
    public var data: [UInt8]

    /// A picture of the given size filled with one colour (default: black, Y=16 U=V=128).
    public init(width: Int, height: Int, y: UInt8 = 16, u: UInt8 = 128, v: UInt8 = 128) {
        precondition(width > 0 && height > 0, "an image needs a positive size")
        self.width = width
        self.height = height
        let lumaCount = width * height
        let chromaCount = ((width + 1) / 2) * ((height + 1) / 2)
        var data = [UInt8](repeating: u, count: lumaCount + 2 * chromaCount)
        data.withUnsafeMutableBufferPointer { buffer in
            buffer[0..<lumaCount].update(repeating: y)
            buffer[(lumaCount + chromaCount)...].update(repeating: v)
        }
        self.data = data
    }

    /// A picture over existing I420 bytes (Y, U, V planes without padding), or nil when
    /// `data` does not hold exactly that many bytes.
    public init?(width: Int, height: Int, data: [UInt8]) {
        guard width > 0, height > 0,
              data.count == width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2) else { return nil }
        self.width = width
        self.height = height
        self.data = data
    }

    public var resolution: Resolution { Resolution(width: width, height: height) }
    public var chromaWidth: Int { (width + 1) / 2 }
    public var chromaHeight: Int { (height + 1) / 2 }

    /// The planes of I420.
    public enum Plane: Int, Sendable, CaseIterable { case y, u, v }

    /// Bytes per row of `plane`.
    public func stride(_ plane: Plane) -> Int { plane == .y ? width : chromaWidth }
    /// Rows of `plane`.
    public func rows(_ plane: Plane) -> Int { plane == .y ? height : chromaHeight }
    /// Where `plane` starts in `data`.
    public func offset(_ plane: Plane) -> Int {
        switch plane {
        case .y: return 0
        case .u: return width * height
        case .v: return width * height + chromaWidth * chromaHeight
        }
    }

    /// The luma sample at (x, y); callers keep x and y inside the picture.
    @inlinable
    public func luma(x: Int, y: Int) -> UInt8 { data[y * width + x] }

    /// Copies a picture out of strided planes, as codec libraries hand them out.
    ///
    /// Each plane pointer must hold `rows(plane)` rows of at least `stride(plane)` bytes at
    /// the given source stride.
    public init(width: Int, height: Int, planes: [UnsafePointer<UInt8>], strides: [Int]) {
        self.init(width: width, height: height)
        let layout = Plane.allCases.map { (stride: stride($0), rows: rows($0), offset: offset($0)) }
        data.withUnsafeMutableBufferPointer { buffer in
            for (index, plane) in layout.enumerated() {
                var destination = buffer.baseAddress! + plane.offset
                var source = planes[index]
                for _ in 0..<plane.rows {
                    destination.update(from: source, count: plane.stride)
                    destination += plane.stride
                    source += strides[index]
                }
            }
        }
    }

    /// Calls `body` with a pointer to the first byte of each plane (Y, U, V).
    public mutating func withMutablePlanes<Result>(
        _ body: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        let (u, v) = (offset(.u), offset(.v))
        return try data.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            return try body(base, base + u, base + v)
        }
    }
}
