import RTCBase

/// A `.y4m` (YUV4MPEG2) file as a video source: the user's own content, encoded like the
/// generated pattern. Only 8-bit 4:2:0 (`C420`, `C420jpeg`, `C420paldv`, `C420mpeg2`, or
/// no `C` tag) at an even size; other colourspaces are refused by name.
///
/// Format: a header line `YUV4MPEG2 W<width> H<height> F<num>:<den> [I.. A.. C.. X..]`,
/// then per frame a line `FRAME[ params]` and the Y, U and V planes.
public struct Y4mReader: Sendable {
    public let resolution: Resolution
    /// Frames per second from the `F` tag, when present.
    public let frameRate: Double?
    private let bytes: [UInt8]
    private let frameOffsets: [Int]

    private static let supportedColourspaces: Set<String> = ["420", "420jpeg", "420paldv", "420mpeg2"]

    public var frameCount: Int { frameOffsets.count }

    public init(bytes: [UInt8]) throws(ParseError) {
        var position = 0
        let header = try Self.line(bytes, from: &position)
        var fields = header.split(separator: " ")
        guard fields.first == "YUV4MPEG2" else { throw .invalid("not a YUV4MPEG2 file") }
        fields.removeFirst()
        var width = 0, height = 0
        var frameRate: Double?
        for field in fields {
            guard let tag = field.first else { continue }
            let value = field.dropFirst()
            switch tag {
            case "W": width = Int(value) ?? 0
            case "H": height = Int(value) ?? 0
            case "F":
                let parts = value.split(separator: ":").compactMap { Double($0) }
                if parts.count == 2, parts[0] > 0, parts[1] > 0 { frameRate = parts[0] / parts[1] }
            case "C":
                guard Self.supportedColourspaces.contains(String(value)) else {
                    throw ParseError(.unsupported, "y4m colourspace C\(value): only 8-bit 4:2:0 (C420*) is supported")
                }
            default: break
            }
        }
        guard width > 0, height > 0, width <= 8192, height <= 8192 else { throw .invalid("y4m W/H missing or out of range") }
        guard width % 2 == 0, height % 2 == 0 else {
            throw ParseError(.unsupported, "y4m size \(width)x\(height): encoders need an even size")
        }
        let frameSize = width * height * 3 / 2
        var offsets: [Int] = []
        while position < bytes.count {
            let frameHeader = try Self.line(bytes, from: &position)
            guard frameHeader.hasPrefix("FRAME") else { throw .invalid("y4m frame \(offsets.count): no FRAME marker") }
            guard bytes.count - position >= frameSize else { throw .truncated("y4m frame \(offsets.count)") }
            offsets.append(position)
            position += frameSize
        }
        resolution = Resolution(width: width, height: height)
        self.frameRate = frameRate
        self.bytes = bytes
        frameOffsets = offsets
    }

    /// The picture of frame `index` (0 ..< frameCount).
    public func image(at index: Int) -> I420Image {
        let start = frameOffsets[index]
        let size = resolution.pixelCount * 3 / 2
        guard let image = I420Image(width: resolution.width, height: resolution.height,
                                    data: Array(bytes[start..<(start + size)])) else {
            preconditionFailure("frame offsets were checked against the frame size")
        }
        return image
    }

    /// One header line, without its newline (at most 1 KiB).
    private static func line(_ bytes: [UInt8], from position: inout Int) throws(ParseError) -> String {
        let limit = min(bytes.count, position + 1024)
        guard let end = bytes[position..<limit].firstIndex(of: 0x0A) else { throw .truncated("y4m header line") }
        defer { position = end + 1 }
        return String(decoding: bytes[position..<end], as: UTF8.self)
    }
}
