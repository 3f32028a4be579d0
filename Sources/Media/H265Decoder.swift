import CDe265

/// H.265 decoding through libde265, on the calling thread: one access unit in, its
/// picture out (the streams rtcswarm sends have no B-frames, so no picture waits for a
/// later one). A frame libde265 cannot decode is a `MediaError`.
public final class H265Decoder: VideoDecoder {
    private let decoder: UnsafeMutableRawPointer

    /// A decoder for Annex-B access units (8-bit 4:2:0).
    public init() throws(MediaError) {
        guard let created = de265_new_decoder() else { throw MediaError(.codecFailure, "de265_new_decoder failed") }
        de265_set_verbosity(0)
        de265_set_parameter_bool(created, DE265_DECODER_PARAM_SUPPRESS_FAULTY_PICTURES, 1)
        decoder = created
    }

    deinit { _ = de265_free_decoder(decoder) }

    public func decode(_ bytes: [UInt8]) throws(MediaError) -> I420Image? {
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else {
            throw MediaError(.corruptInput, "H265: empty access unit")
        }
        let pushed = bytes.withUnsafeBufferPointer { de265_push_data(decoder, $0.baseAddress, Int32($0.count), 0, nil) }
        guard de265_isOK(pushed) != 0 else { throw Self.failure(pushed) }
        de265_push_end_of_frame(decoder)
        // Decode until libde265 wants input, taking pictures as they come out: it stops
        // decoding while its output queue is full. A picture is only valid until the next
        // de265 call, so it is copied at once.
        var image: I420Image?
        for _ in 0..<Self.maximumDecodeSteps {
            var more: Int32 = 0
            let status = de265_decode(decoder, &more)
            guard status == DE265_OK || status == DE265_ERROR_WAITING_FOR_INPUT_DATA else { throw Self.failure(status) }
            if let picture = de265_get_next_picture(decoder) { image = try Self.copy(picture) }
            if status == DE265_ERROR_WAITING_FOR_INPUT_DATA || more == 0 { return image }
        }
        throw MediaError(.corruptInput, "H265: access unit still decoding after \(Self.maximumDecodeSteps) steps")
    }

    /// More steps than any access unit's NAL units: a bound against a decoder that never settles.
    private static let maximumDecodeSteps = 10_000

    private static func copy(_ picture: OpaquePointer) throws(MediaError) -> I420Image {
        guard de265_get_chroma_format(picture) == de265_chroma_420, de265_get_bits_per_pixel(picture, 0) == 8 else {
            throw MediaError(.corruptInput, "H265: picture is not 8-bit 4:2:0")
        }
        var strides: [Int32] = [0, 0, 0]
        var planes: [UnsafePointer<UInt8>] = []
        for channel in 0..<3 {
            guard let plane = de265_get_image_plane(picture, Int32(channel), &strides[channel]) else {
                throw MediaError(.corruptInput, "H265: decoder returned no plane \(channel)")
            }
            planes.append(plane)
        }
        return I420Image(width: Int(de265_get_image_width(picture, 0)), height: Int(de265_get_image_height(picture, 0)),
                         planes: planes, strides: strides.map(Int.init))
    }

    private static func failure(_ error: de265_error) -> MediaError {
        MediaError(.corruptInput, "H265: \(String(cString: de265_get_error_text(error)))")
    }
}
