/// Scenario-file form of a profile: an object with snake_case fields, or a preset name.
///
///     "lossy-wifi"
///     {"loss_pct": 5, "burst_length": 3, "delay_ms": 40, "jitter_ms": 10, "reorder": false,
///      "duplicate_pct": 0, "rate_kbps": 300, "queue_packets": 50}
///
/// Missing fields keep their defaults (no impairment). An unknown field or preset, or a
/// value out of range, fails decoding with a message naming it and listing what is
/// allowed, so a typo never silently means "clean". Encoding writes only the fields that
/// differ from the defaults.
extension ImpairmentProfile: Codable {
    enum Field: String, CodingKey, CaseIterable {
        case lossPct = "loss_pct"
        case burstLength = "burst_length"
        case gilbertElliott = "gilbert_elliott"
        case delayMs = "delay_ms"
        case jitterMs = "jitter_ms"
        case jitterDistribution = "jitter_distribution"
        case reorder
        case duplicatePct = "duplicate_pct"
        case rateKbps = "rate_kbps"
        case queuePackets = "queue_packets"
        case queueBytes = "queue_bytes"
        case bucketBytes = "bucket_bytes"
    }

    /// Any key, to find the ones `Field` does not know.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            guard let preset = Self.preset(named: name) else {
                throw DecodingError.dataCorruptedError(
                    in: single,
                    debugDescription: "unknown impairment preset '\(name)'; allowed: \(Self.presetNames.joined(separator: ", "))")
            }
            self = preset
            return
        }
        let all = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = all.allKeys.first(where: { Field(stringValue: $0.stringValue) == nil }) {
            let allowed = Field.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                forKey: unknown, in: all,
                debugDescription: "unknown impairment field '\(unknown.stringValue)'; allowed: \(allowed)")
        }
        let fields = try decoder.container(keyedBy: Field.self)
        self.init()
        lossPct = try fields.decodeIfPresent(Double.self, forKey: .lossPct) ?? lossPct
        burstLength = try fields.decodeIfPresent(Double.self, forKey: .burstLength) ?? burstLength
        gilbertElliott = try fields.decodeIfPresent(GilbertElliott.self, forKey: .gilbertElliott)
        delayMs = try fields.decodeIfPresent(Double.self, forKey: .delayMs) ?? delayMs
        jitterMs = try fields.decodeIfPresent(Double.self, forKey: .jitterMs) ?? jitterMs
        jitterDistribution = try fields.decodeIfPresent(JitterDistribution.self, forKey: .jitterDistribution) ?? jitterDistribution
        reorder = try fields.decodeIfPresent(Bool.self, forKey: .reorder) ?? reorder
        duplicatePct = try fields.decodeIfPresent(Double.self, forKey: .duplicatePct) ?? duplicatePct
        rateKbps = try fields.decodeIfPresent(Double.self, forKey: .rateKbps)
        queuePackets = try fields.decodeIfPresent(Int.self, forKey: .queuePackets)
        queueBytes = try fields.decodeIfPresent(Int.self, forKey: .queueBytes)
        bucketBytes = try fields.decodeIfPresent(Int.self, forKey: .bucketBytes) ?? bucketBytes
        do {
            try validate()
        } catch {
            let key = Field(rawValue: error.field.split(separator: ".").first.map(String.init) ?? "") ?? .lossPct
            throw DecodingError.dataCorruptedError(forKey: key, in: fields, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        let defaults = ImpairmentProfile()
        var fields = encoder.container(keyedBy: Field.self)
        if lossPct != defaults.lossPct { try fields.encode(lossPct, forKey: .lossPct) }
        if burstLength != defaults.burstLength { try fields.encode(burstLength, forKey: .burstLength) }
        try fields.encodeIfPresent(gilbertElliott, forKey: .gilbertElliott)
        if delayMs != defaults.delayMs { try fields.encode(delayMs, forKey: .delayMs) }
        if jitterMs != defaults.jitterMs { try fields.encode(jitterMs, forKey: .jitterMs) }
        if jitterDistribution != defaults.jitterDistribution {
            try fields.encode(jitterDistribution, forKey: .jitterDistribution)
        }
        if reorder != defaults.reorder { try fields.encode(reorder, forKey: .reorder) }
        if duplicatePct != defaults.duplicatePct { try fields.encode(duplicatePct, forKey: .duplicatePct) }
        try fields.encodeIfPresent(rateKbps, forKey: .rateKbps)
        try fields.encodeIfPresent(queuePackets, forKey: .queuePackets)
        try fields.encodeIfPresent(queueBytes, forKey: .queueBytes)
        if bucketBytes != defaults.bucketBytes { try fields.encode(bucketBytes, forKey: .bucketBytes) }
    }
}
