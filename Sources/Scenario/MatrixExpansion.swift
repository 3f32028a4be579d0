import Impairment

/// One run of a matrix: its label, the values that make it, and the scenario with those
/// values applied to every group that sends video (and, for impairment, to what every
/// peer receives).
public struct MatrixCell: Sendable {
    public var label: String
    public var parameters: [String: String]
    public var scenario: Scenario
}

extension Scenario {
    /// The runs a matrix expands into, in codec, resolution, bitrate, impairment order;
    /// without a matrix, one cell labelled `default`.
    public var matrixCells: [MatrixCell] {
        guard let matrix else { return [MatrixCell(label: "default", parameters: [:], scenario: self)] }
        var cells = [MatrixCell(label: "", parameters: [:], scenario: self)]
        func expand<Value>(_ values: [Value]?, name: String, text: (Value) -> String, apply: (inout Scenario, Value) -> Void) {
            guard let values, !values.isEmpty else { return }
            cells = cells.flatMap { cell in
                values.map { value in
                    var next = cell
                    next.parameters[name] = text(value)
                    next.label = next.label.isEmpty ? text(value) : "\(next.label) \(text(value))"
                    apply(&next.scenario, value)
                    return next
                }
            }
        }
        expand(matrix.codec, name: "codec", text: \.rawValue) { scenario, codec in
            scenario.updateVideo { $0.codec = codec }
        }
        expand(matrix.resolution, name: "resolution", text: \.description) { scenario, resolution in
            scenario.updateVideo { $0.resolution = resolution }
        }
        expand(matrix.bitrateKbps, name: "bitrate_kbps", text: { "\($0)kbps" }) { scenario, bitrate in
            scenario.updateVideo { $0.bitrateKbps = bitrate }
        }
        expand(matrix.impairment?.enumerated().map { $0 }, name: "impairment",
               text: { Self.impairmentLabel($0.element, index: $0.offset) }) { scenario, impairment in
            for index in scenario.groups.indices {
                var settings = scenario.groups[index].impairment ?? ImpairmentSettings()
                settings.receive = impairment.element
                scenario.groups[index].impairment = settings
            }
        }
        for index in cells.indices { cells[index].scenario.matrix = nil }
        return cells
    }

    /// Applies `change` to the video of every group that sends media.
    mutating func updateVideo(_ change: (inout VideoSettings) -> Void) {
        for index in groups.indices where groups[index].role != .member {
            var media = groups[index].media ?? MediaSettings()
            var video = media.video ?? VideoSettings()
            change(&video)
            media.video = video
            groups[index].media = media
        }
    }

    /// A preset's name, or `impairment-<n>` for a custom profile or schedule.
    static func impairmentLabel(_ schedule: ImpairmentSchedule, index: Int) -> String {
        if schedule.changes.count == 1, schedule.changes[0].offset == .zero,
           let name = ImpairmentProfile.presetNames.first(where: { ImpairmentProfile.preset(named: $0) == schedule.changes[0].profile }) {
            return name
        }
        return schedule.changes.isEmpty ? "clean" : "impairment-\(index + 1)"
    }
}
