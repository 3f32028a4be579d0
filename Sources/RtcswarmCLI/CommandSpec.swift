/// What a subcommand accepts: every option has a value name, a default and a help line,
/// so `--help` can list them all (the style of swift-argument-parser, which cannot be
/// fetched here).
public struct CommandSpec: Sendable {
    public struct Option: Sendable {
        public let name: String
        /// nil for a flag that takes no value.
        public let valueName: String?
        /// Printed in help; nil when there is none.
        public let defaultValue: String?
        public let help: String
        /// May be given more than once (`--set a=1 --set b=2`).
        public let repeatable: Bool

        public static func value(_ name: String, _ valueName: String, default defaultValue: String? = nil,
                                 repeatable: Bool = false, _ help: String) -> Option {
            Option(name: name, valueName: valueName, defaultValue: defaultValue, help: help, repeatable: repeatable)
        }

        public static func flag(_ name: String, _ help: String) -> Option {
            Option(name: name, valueName: nil, defaultValue: nil, help: help, repeatable: false)
        }
    }

    public struct Positional: Sendable {
        public let name: String
        public let help: String
        public let optional: Bool
        /// Takes every remaining argument (only the last positional can).
        public let variadic: Bool

        public init(_ name: String, optional: Bool = false, variadic: Bool = false, _ help: String) {
            self.name = name
            self.help = help
            self.optional = optional
            self.variadic = variadic
        }
    }

    public let name: String
    public let summary: String
    public let options: [Option]
    public let positionals: [Positional]
    public let examples: [String]

    public init(name: String, summary: String, options: [Option] = [], positionals: [Positional] = [],
                examples: [String] = []) {
        self.name = name
        self.summary = summary
        self.options = options + [.flag("help", "Show this help and exit.")]
        self.positionals = positionals
        self.examples = examples
    }

    /// The full help text: usage line, arguments, every option with its default, examples.
    public var help: String {
        var lines: [String] = []
        let positionalUsage = positionals.map { positional in
            let name = positional.variadic ? positional.name + "..." : positional.name
            return positional.optional ? "[\(name)]" : name
        }.joined(separator: " ")
        lines.append("USAGE: rtcswarm \(name) [options]\(positionalUsage.isEmpty ? "" : " " + positionalUsage)")
        lines.append("")
        lines.append(summary)
        if !positionals.isEmpty {
            lines.append("")
            lines.append("ARGUMENTS:")
            for positional in positionals {
                lines.append("  " + pad(positional.name, to: 26) + positional.help)
            }
        }
        lines.append("")
        lines.append("OPTIONS:")
        for option in options {
            let left = "--\(option.name)" + (option.valueName.map { " <\($0)>" } ?? "")
            var text = option.help
            if let defaultValue = option.defaultValue { text += " (default: \(defaultValue))" }
            if option.repeatable { text += " (repeatable)" }
            lines.append("  " + pad(left, to: 26) + text)
        }
        if !examples.isEmpty {
            lines.append("")
            lines.append("EXAMPLES:")
            lines.append(contentsOf: examples.map { "  " + $0 })
        }
        return lines.joined(separator: "\n")
    }

    private func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text + "  " : text + String(repeating: " ", count: width - text.count)
    }
}
