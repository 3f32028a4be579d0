/// A command-line mistake: printed as one line with a hint, and the process exits 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public let hint: String

    public init(_ message: String, hint: String) {
        self.message = message
        self.hint = hint
    }

    public var description: String { "error: \(message)\nhint: \(hint)" }
}

/// The arguments of one subcommand after parsing, with typed accessors that report
/// bad values by option name.
public struct ParsedArguments: Equatable {
    public let command: String
    public private(set) var values: [String: [String]] = [:]
    public private(set) var flags: Set<String> = []
    public private(set) var positionals: [String] = []
    let defaults: [String: String]

    init(command: String, defaults: [String: String]) {
        self.command = command
        self.defaults = defaults
    }

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for `name`, else its default.
    public func string(_ name: String) -> String? { values[name]?.last ?? defaults[name] }

    /// Every value given for a repeatable option.
    public func strings(_ name: String) -> [String] { values[name] ?? [] }

    public func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("--\(name) \(text): expected a whole number from \(range.lowerBound) to \(range.upperBound)",
                             hint: "see 'rtcswarm \(command) --help'")
        }
        return value
    }

    public func double(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = string(name) else { return nil }
        guard let value = Double(text), range.contains(value) else {
            throw UsageError("--\(name) \(text): expected a number from \(range.lowerBound) to \(range.upperBound)",
                             hint: "see 'rtcswarm \(command) --help'")
        }
        return value
    }

    mutating func add(value: String, for name: String) { values[name, default: []].append(value) }
    mutating func add(flag name: String) { flags.insert(name) }
    mutating func add(positional: String) { positionals.append(positional) }
}

extension CommandSpec {
    /// Parses `arguments` (without the program and subcommand names). Accepts
    /// `--name value`, `--name=value`, flags, and positionals; `--` ends options.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(command: name,
                                     defaults: Dictionary(options.compactMap { o in o.defaultValue.map { (o.name, $0) } },
                                                          uniquingKeysWith: { a, _ in a }))
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !optionsEnded, argument.hasPrefix("--"), argument.count > 2 else {
                if argument == "--" && !optionsEnded {
                    optionsEnded = true
                } else {
                    parsed.add(positional: argument)
                }
                continue
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let option = options.first(where: { $0.name == name }) else {
                let valid = options.map { "--\($0.name)" }.joined(separator: ", ")
                throw UsageError("unknown option --\(name) for '\(self.name)'", hint: "valid options: \(valid)")
            }
            if option.valueName == nil {
                if inlineValue != nil {
                    throw UsageError("--\(name) takes no value", hint: "write --\(name) alone")
                }
                parsed.add(flag: name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError("--\(name) needs a value <\(option.valueName ?? "value")>",
                                 hint: "e.g. --\(name) \(option.defaultValue ?? "<\(option.valueName ?? "value")>")")
            }
            if !option.repeatable, parsed.values[name] != nil {
                throw UsageError("--\(name) given twice", hint: "give it once")
            }
            parsed.add(value: value, for: name)
        }
        if parsed.flag("help") { return parsed }
        let required = positionals.filter { !$0.optional }
        if parsed.positionals.count < required.count {
            let missing = required[parsed.positionals.count]
            throw UsageError("'\(self.name)' needs \(missing.name): \(missing.help)", hint: "see 'rtcswarm \(self.name) --help'")
        }
        if parsed.positionals.count > positionals.count, positionals.last?.variadic != true {
            let extra = parsed.positionals[positionals.count]
            throw UsageError("unexpected argument '\(extra)' for '\(self.name)'", hint: "see 'rtcswarm \(self.name) --help'")
        }
        return parsed
    }
}
