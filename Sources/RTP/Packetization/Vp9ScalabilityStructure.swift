import RTCBase

/// The VP9 scalability structure, SS (RFC 9628 4.2.1): spatial layer resolutions and
/// the picture group description, sent on keyframes.
///
///     N_S(3) Y G RSV(3) | WIDTH(16) HEIGHT(16) x (N_S + 1) (if Y)
///     N_G (if G) | TID(3) U R(2) RSV(2) then R x P_DIFF(8), N_G times
public struct Vp9ScalabilityStructure: Equatable, Sendable {
    /// One spatial layer's frame size, as the 16-bit fields carry it.
    public struct LayerSize: Equatable, Sendable {
        public var width: UInt16
        public var height: UInt16
        public init(width: UInt16, height: UInt16) {
            self.width = width
            self.height = height
        }
    }

    /// One picture of the group of frames.
    public struct Picture: Equatable, Sendable {
        public var temporalId: UInt8
        public var switchingUp: Bool
        public var referenceDifferences: [UInt8]
        public init(temporalId: UInt8, switchingUp: Bool, referenceDifferences: [UInt8]) {
            self.temporalId = temporalId
            self.switchingUp = switchingUp
            self.referenceDifferences = referenceDifferences
        }
    }

    public var spatialLayers: Int
    /// Empty when Y=0.
    public var resolutions: [LayerSize]
    /// Nil when G=0.
    public var pictureGroup: [Picture]?

    public init(spatialLayers: Int = 1, resolutions: [LayerSize], pictureGroup: [Picture]?) {
        self.spatialLayers = spatialLayers
        self.resolutions = resolutions
        self.pictureGroup = pictureGroup
    }

    init(from reader: inout ByteReader) throws(ParseError) {
        let first = try reader.readU8("VP9 SS")
        spatialLayers = Int(first >> 5) + 1
        resolutions = []
        if first & 0x10 != 0 {
            for _ in 0..<spatialLayers {
                resolutions.append(
                    LayerSize(width: try reader.readU16("VP9 SS width"), height: try reader.readU16("VP9 SS height")))
            }
        }
        pictureGroup = nil
        if first & 0x08 != 0 {
            var pictures: [Picture] = []
            for _ in 0..<Int(try reader.readU8("VP9 SS N_G")) {
                let byte = try reader.readU8("VP9 SS picture")
                var differences: [UInt8] = []
                for _ in 0..<Int(byte >> 2 & 0x03) { differences.append(try reader.readU8("VP9 SS P_DIFF")) }
                pictures.append(Picture(temporalId: byte >> 5, switchingUp: byte & 0x10 != 0, referenceDifferences: differences))
            }
            pictureGroup = pictures
        }
    }

    func write(to writer: inout ByteWriter) {
        var first = UInt8(max(0, min(spatialLayers - 1, 7))) << 5
        if !resolutions.isEmpty { first |= 0x10 }
        if pictureGroup != nil { first |= 0x08 }
        writer.writeU8(first)
        for resolution in resolutions.prefix(spatialLayers) {
            writer.writeU16(resolution.width)
            writer.writeU16(resolution.height)
        }
        if let pictureGroup {
            writer.writeU8(UInt8(min(pictureGroup.count, 255)))
            for picture in pictureGroup.prefix(255) {
                let differences = picture.referenceDifferences.prefix(3)
                writer.writeU8((picture.temporalId & 0x07) << 5 | (picture.switchingUp ? 0x10 : 0) | UInt8(differences.count) << 2)
                writer.write(differences)
            }
        }
    }
}
