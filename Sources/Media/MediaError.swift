/// Why an encoder, decoder or media file reader failed.
///
/// Like `ParseError`, an extensible code plus a human message. A corrupted or truncated
/// frame given to a decoder produces one of these, never a crash.
public struct MediaError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The codec library refused a configuration (size, bitrate, channel count).
        public static let configuration = Code("configuration rejected")
        /// The codec library failed on valid input (out of memory, internal error).
        public static let codecFailure = Code("codec failure")
        /// The encoded input is corrupted, truncated or not of this codec.
        public static let corruptInput = Code("corrupt input")
        /// A frame does not fit what the encoder was set up for (channels, sample count).
        public static let invalidInput = Code("invalid input")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
