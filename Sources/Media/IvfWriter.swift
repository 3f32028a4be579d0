import RTCBase
import RTP

/// Writes VP8/VP9 frames into an `.ivf` file (layout in `IvfReader`), with a 1/90000
/// timebase so RTP timestamps go in unchanged: to record a received stream or to make
/// files for `IvfReader`.
public struct IvfWriter: Sendable {
    public private(set) var bytes: [UInt8]
    private var frameCount: UInt32 = 0

    public init(codec: Codec, resolution: Resolution) {
        precondition(codec == .vp8 || codec == .vp9, "IVF holds VP8 or VP9")
        bytes = Array("DKIF".utf8)
        Self.append(&bytes, 0, 2)  // version
        Self.append(&bytes, 32, 2)  // header size
        bytes += Array((codec == .vp8 ? "VP80" : "VP90").utf8)
        Self.append(&bytes, UInt64(resolution.width), 2)
        Self.append(&bytes, UInt64(resolution.height), 2)
        Self.append(&bytes, 90_000, 4)  // timebase denominator
        Self.append(&bytes, 1, 4)  // timebase numerator
        Self.append(&bytes, 0, 4)  // frame count, patched by `append`
        Self.append(&bytes, 0, 4)  // unused
    }

    /// Appends one frame with its timestamp in 1/90000 s.
    public mutating func append(_ frame: [UInt8], timestamp: UInt64) {
        Self.append(&bytes, UInt64(frame.count), 4)
        Self.append(&bytes, timestamp, 8)
        bytes += frame
        frameCount += 1
        for byte in 0..<4 { bytes[24 + byte] = UInt8(truncatingIfNeeded: frameCount >> (8 * UInt32(byte))) }
    }

    private static func append(_ bytes: inout [UInt8], _ value: UInt64, _ count: Int) {
        for byte in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte)))) }
    }
}
