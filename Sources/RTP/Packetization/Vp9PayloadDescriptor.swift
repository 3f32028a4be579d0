import RTCBase

/// The VP9 payload descriptor (RFC 9628 4.2), as libvpx/libwebrtc send it.
///
///     I P L F B E V Z | M PictureID (if I) | TID U SID D (if L) | TL0PICIDX (if L, F=0)
///     P_DIFF N ... (if F and P, up to 3) | scalability structure (if V, 4.2.1)
public struct Vp9PayloadDescriptor: Equatable, Sendable {
    /// Layer indices (the L byte).
    public struct Layer: Equatable, Sendable {
        public var temporalId: UInt8
        public var switchingUp: Bool
        public var spatialId: UInt8
        public var interLayerDependency: Bool
        public init(temporalId: UInt8 = 0, switchingUp: Bool = false, spatialId: UInt8 = 0, interLayerDependency: Bool = false) {
            self.temporalId = temporalId
            self.switchingUp = switchingUp
            self.spatialId = spatialId
            self.interLayerDependency = interLayerDependency
        }
    }

    /// P: the picture is inter-predicted (a delta frame).
    public var interPredicted: Bool
    /// F: flexible mode (reference indices in the descriptor).
    public var flexible: Bool
    /// B: start of a frame.
    public var beginsFrame: Bool
    /// E: end of a frame.
    public var endsFrame: Bool
    /// Z: not used as a reference by upper spatial layers.
    public var notReferenceForUpperLayers: Bool
    /// 7- or 15-bit picture ID (15-bit when written).
    public var pictureId: UInt16?
    public var layer: Layer?
    /// TL0PICIDX (non-flexible mode with layer indices).
    public var tl0PicIndex: UInt8?
    /// P_DIFF values (flexible mode).
    public var referenceDifferences: [UInt8]
    /// The scalability structure, present on keyframes (V bit).
    public var scalability: Vp9ScalabilityStructure?

    public init(
        interPredicted: Bool, beginsFrame: Bool, endsFrame: Bool, pictureId: UInt16?, layer: Layer? = nil,
        tl0PicIndex: UInt8? = nil, scalability: Vp9ScalabilityStructure? = nil
    ) {
        self.interPredicted = interPredicted
        self.flexible = false
        self.beginsFrame = beginsFrame
        self.endsFrame = endsFrame
        self.notReferenceForUpperLayers = false
        self.pictureId = pictureId
        self.layer = layer
        self.tl0PicIndex = tl0PicIndex
        self.referenceDifferences = []
        self.scalability = scalability
    }

    /// Reads the descriptor at the start of the payload in `reader`, leaving the reader
    /// at the VP9 data, which must not be empty.
    public init(from reader: inout ByteReader) throws(ParseError) {
        let first = try reader.readU8("VP9 descriptor")
        interPredicted = first & 0x40 != 0
        flexible = first & 0x10 != 0
        beginsFrame = first & 0x08 != 0
        endsFrame = first & 0x04 != 0
        notReferenceForUpperLayers = first & 0x01 != 0
        pictureId = nil
        layer = nil
        tl0PicIndex = nil
        referenceDifferences = []
        scalability = nil
        if first & 0x80 != 0 {
            let high = try reader.readU8("VP9 picture ID")
            pictureId = high & 0x80 != 0
                ? UInt16(high & 0x7f) << 8 | UInt16(try reader.readU8("VP9 picture ID")) : UInt16(high)
        }
        if first & 0x20 != 0 {
            let byte = try reader.readU8("VP9 layer indices")
            layer = Layer(
                temporalId: byte >> 5, switchingUp: byte & 0x10 != 0, spatialId: byte >> 1 & 0x07,
                interLayerDependency: byte & 0x01 != 0)
            if !flexible { tl0PicIndex = try reader.readU8("VP9 TL0PICIDX") }
        }
        if flexible, interPredicted {
            var more = true
            while more {
                guard referenceDifferences.count < 3 else { throw .invalid("VP9 more than 3 P_DIFF") }
                let byte = try reader.readU8("VP9 P_DIFF")
                referenceDifferences.append(byte >> 1)
                more = byte & 0x01 != 0
            }
        }
        if first & 0x02 != 0 { scalability = try Vp9ScalabilityStructure(from: &reader) }
        guard reader.remaining > 0 else { throw .truncated("VP9 payload without data") }
    }

    /// Writes the descriptor (non-flexible mode; picture ID as 15 bits).
    public func write(to writer: inout ByteWriter) {
        var first: UInt8 = 0
        if pictureId != nil { first |= 0x80 }
        if interPredicted { first |= 0x40 }
        if layer != nil { first |= 0x20 }
        if beginsFrame { first |= 0x08 }
        if endsFrame { first |= 0x04 }
        if scalability != nil { first |= 0x02 }
        if notReferenceForUpperLayers { first |= 0x01 }
        writer.writeU8(first)
        if let pictureId { writer.writeU16(0x8000 | pictureId & 0x7fff) }
        if let layer {
            writer.writeU8(
                (layer.temporalId & 0x07) << 5 | (layer.switchingUp ? 0x10 : 0) | (layer.spatialId & 0x07) << 1
                    | (layer.interLayerDependency ? 1 : 0))
            writer.writeU8(tl0PicIndex ?? 0)
        }
        scalability?.write(to: &writer)
    }
}
