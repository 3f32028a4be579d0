/// One `rtcswarm <name>` subcommand.
public protocol Subcommand: SendableMetatype {
    static var spec: CommandSpec { get }
    /// Runs with parsed arguments; returns the process exit code.
    static func run(_ arguments: ParsedArguments, console: Console) -> ExitCode
}

/// A subcommand as a value, so the dispatcher can keep a list of them.
public struct SubcommandEntry: Sendable {
    public let spec: CommandSpec
    public let run: @Sendable (ParsedArguments, Console) -> ExitCode

    public init<Command: Subcommand>(_ command: Command.Type) {
        spec = command.spec
        run = { command.run($0, console: $1) }
    }
}

/// The top level: `--help`, `--version` and dispatch to subcommands.
public enum Rtcswarm {
    public static let version = "0.1.0"

    public static let subcommands: [SubcommandEntry] = [
        SubcommandEntry(RunCommand.self),
        SubcommandEntry(ValidateCommand.self),
        SubcommandEntry(PlanCommand.self),
        SubcommandEntry(ServeCommand.self),
        SubcommandEntry(ReportCommand.self),
        SubcommandEntry(SelfcheckCommand.self),
        SubcommandEntry(DoctorCommand.self),
        SubcommandEntry(WorkerCommand.self),
        SubcommandEntry(InteropMatrixCommand.self),
    ]

    public static var help: String {
        var lines = [
            "rtcswarm \(version): WebRTC interoperability and load-test harness",
            "",
            "USAGE: rtcswarm <subcommand> [options]",
            "",
            "SUBCOMMANDS:",
        ]
        for command in subcommands {
            let name = command.spec.name
            lines.append("  " + name + String(repeating: " ", count: max(2, 12 - name.count)) + command.spec.summary)
        }
        lines += [
            "",
            "OPTIONS:",
            "  --help      Show this help and exit.",
            "  --version   Print the version and exit.",
            "",
            "Run 'rtcswarm <subcommand> --help' for the options of one subcommand.",
        ]
        return lines.joined(separator: "\n")
    }

    /// Runs the command line (without the program name) and returns the exit code.
    public static func main(_ arguments: [String], console: Console = .standard) -> ExitCode {
        guard let first = arguments.first else {
            console.out(help)
            return .success
        }
        switch first {
        case "--help", "-h", "help":
            console.out(help)
            return .success
        case "--version", "version":
            console.out("rtcswarm \(version)")
            return .success
        default:
            break
        }
        guard let command = subcommands.first(where: { $0.spec.name == first }) else {
            let names = subcommands.map(\.spec.name).joined(separator: ", ")
            let error = first.hasPrefix("-")
                ? UsageError("unknown option \(first)", hint: "options before a subcommand: --help, --version")
                : UsageError("unknown subcommand '\(first)'", hint: "subcommands: \(names); see 'rtcswarm --help'")
            console.error(error.description)
            return .usage
        }
        do {
            let parsed = try command.spec.parse(Array(arguments.dropFirst()))
            if parsed.flag("help") {
                console.out(command.spec.help)
                return .success
            }
            return command.run(parsed, console)
        } catch {
            console.error(error.description)
            return .usage
        }
    }
}
