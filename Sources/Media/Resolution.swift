/// A picture size in luma samples, as published, inspected in a bitstream or decoded.
///
/// Resolution survival (shared/METRICS.md) compares these three for every frame.
public struct Resolution: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Width times height.
    public var pixelCount: Int { width * height }

    /// `1280x720`.
    public var description: String { "\(width)x\(height)" }

    /// The 16:9 sizes the tests and scenarios use most.
    public static let p180 = Resolution(width: 320, height: 180)
    public static let p360 = Resolution(width: 640, height: 360)
    public static let p720 = Resolution(width: 1280, height: 720)
    public static let p1080 = Resolution(width: 1920, height: 1080)
    public static let p2160 = Resolution(width: 3840, height: 2160)
}
