import RTP
import Foundation
import Media
import RTCBase

/// What a user's media file says about itself before a run starts: the codec it is sent
/// as and the picture size players should receive (resolution survival compares with it).
struct MediaFileHeader {
    let codec: Codec
    let width: Int
    let height: Int

    /// `.y4m` is encoded with `encodeWith`; `.ivf` (VP8/VP9) and Annex-B `.h264` are sent as they are.
    init(path: String, encodeWith: Codec) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "y4m":
            let reader = try Y4mReader(bytes: bytes)
            (codec, width, height) = (encodeWith, reader.resolution.width, reader.resolution.height)
        case "ivf":
            let reader = try IvfReader(bytes: bytes)
            (codec, width, height) = (reader.codec, reader.resolution.width, reader.resolution.height)
        case "h264", "264":
            guard let first = AnnexB.accessUnits(in: bytes).first,
                  let size = try BitstreamInspector.inspect(first, codec: .h264).resolution else {
                throw MediaError(.invalidInput, "the first access unit carries no SPS to read the picture size from")
            }
            (codec, width, height) = (.h264, size.width, size.height)
        case let other:
            throw MediaError(.invalidInput, "\"\(other)\" files are not a source; use .y4m, .ivf or .h264")
        }
    }
}
