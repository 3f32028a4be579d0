/// A picture size in luma samples: as a scenario asks for it, as an encoder makes it, as a
/// receiver reads it from the bitstream. Written `WIDTHxHEIGHT` (`1280x720`) only where it
/// meets a file or a person: scenario files, reports.
public struct Resolution: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `1280x720`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        self.init(width: width, height: height)
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
