import RTP
import RTCBase

/// A pre-encoded `.ivf` file (VP8 or VP9), sent as it is, looped by the caller.
///
/// Layout, little-endian: a 32-byte header (`DKIF`, version 0, header size 32, fourcc
/// `VP80`/`VP90`, width and height (16 bits each), timebase denominator and numerator
/// (32 bits each), frame count, unused), then per frame a 12-byte header (size 32 bits,
/// timestamp 64 bits) and the frame.
public struct IvfReader: Sendable {
    public let codec: Codec
    public let resolution: Resolution
    /// Timestamps count `timebaseNumerator / timebaseDenominator` seconds.
    public let timebaseNumerator: Int
    public let timebaseDenominator: Int
    private let bytes: [UInt8]
    private let frames: [(range: Range<Int>, timestamp: UInt64)]

    public var frameCount: Int { frames.count }

    /// Reads the header and indexes every frame; throws on a foreign or cut-short file.
    public init(bytes: [UInt8]) throws(ParseError) {
        guard bytes.count >= 32 else { throw .truncated("IVF header") }
        guard bytes[0..<4].elementsEqual("DKIF".utf8) else { throw .invalid("not an IVF file") }
        let headerSize = Int(Self.le(bytes, 6, 2))
        guard headerSize >= 32, headerSize <= bytes.count else { throw .invalid("IVF header size \(headerSize)") }
        switch String(decoding: bytes[8..<12], as: UTF8.self) {
        case "VP80": codec = .vp8
        case "VP90": codec = .vp9
        case let other: throw ParseError(.unsupported, "IVF fourcc \(other): only VP80 and VP90")
        }
        resolution = Resolution(width: Int(Self.le(bytes, 12, 2)), height: Int(Self.le(bytes, 14, 2)))
        timebaseDenominator = Int(Self.le(bytes, 16, 4))
        timebaseNumerator = Int(Self.le(bytes, 20, 4))
        var frames: [(Range<Int>, UInt64)] = []
        var position = headerSize
        while position < bytes.count {
            guard bytes.count - position >= 12 else { throw .truncated("IVF frame header \(frames.count)") }
            let size = Int(Self.le(bytes, position, 4))
            let timestamp = Self.le(bytes, position + 4, 8)
            position += 12
            guard size > 0, size <= bytes.count - position else { throw .truncated("IVF frame \(frames.count)") }
            frames.append((position..<(position + size), timestamp))
            position += size
        }
        self.bytes = bytes
        self.frames = frames
    }

    /// The encoded bytes of frame `index` (0 ..< frameCount).
    public func frame(at index: Int) -> [UInt8] { Array(bytes[frames[index].range]) }

    /// The timestamp of frame `index`, in the file's timebase.
    public func timestamp(at index: Int) -> UInt64 { frames[index].timestamp }

    /// A little-endian unsigned field of `count` bytes (callers check bounds).
    static func le(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt64 {
        (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }
}
