/// What one `runway` command takes, declared once: parsing, `--help`, usage errors, the command
/// list and the README's reference are all made from it, so they cannot disagree.
public struct CommandDeclaration: Sendable {
    /// Where the command list shows a command.
    public enum Group: String, Sendable, CaseIterable {
        case flights = "fly and look back"
        case logbook = "the logbook"
        case runwayd = "the running runwayd"
        case sensors = "Bluetooth sensors (through runwayd)"
        case board = "the board's parts"
        case other = "other"
    }

    /// `--name VALUE` or, without a value name, a flag.
    public struct Option: Sendable {
        public var name: String
        public var value: String?
        public var help: String
        public var required: Bool

        public init(_ name: String, value: String? = nil, help: String, required: Bool = false) {
            precondition(name.hasPrefix("--"), "an option's name starts with --")
            self.name = name
            self.value = value
            self.help = help
            self.required = required
        }

        var isFlag: Bool { value == nil }

        /// `--name VALUE`, bracketed when optional.
        var synopsis: String {
            let text = value.map { "\(name) \($0)" } ?? name
            return required ? text : "[\(text)]"
        }
    }

    /// A positional argument.
    public struct Argument: Sendable {
        public var name: String
        public var help: String
        public var required: Bool

        public init(_ name: String, help: String, required: Bool = true) {
            self.name = name
            self.help = help
            self.required = required
        }

        var synopsis: String { required ? name : "[\(name)]" }
    }

    public var name: String
    public var group: Group
    /// One line: what the command does.
    public var abstract: String
    /// More about it, wrapped by the help text.
    public var discussion: String
    public var arguments: [Argument]
    public var options: [Option]
    /// Whole command lines a runner can copy.
    public var examples: [String]

    public init(
        _ name: String, group: Group, abstract: String, discussion: String = "",
        arguments: [Argument] = [], options: [Option] = [], examples: [String] = []
    ) {
        self.name = name
        self.group = group
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.examples = examples
    }

    func option(named name: String) -> Option? { options.first { $0.name == name } }
}

extension CommandDeclaration.Option {
    /// `--tz`, `--utc-offset` and `--config`: where a command that prints local times takes its
    /// time zone from.
    static let zone: [Self] = [
        .init("--tz", value: "ZONE", help: "show local times in this IANA time zone (Asia/Seoul)"),
        .init("--utc-offset", value: "±H[:MM]", help: "show local times at this fixed offset (+9, -3:30)"),
        .init(
            "--config", value: "FILE",
            help: "runwayd's configuration, for its time_zone (default /etc/runway/runway.json)"),
    ]
    static let json = Self("--json", help: "print JSON instead of text (times in UTC)")
    /// `--audio DIR` (read as a value) and `--lang L` (read by `ParsedArguments.language`).
    static let audio = Self(
        "--audio", value: "DIR",
        help: "write what the board would have said: callouts.json, a WAV per utterance and track.wav")
    static let lang = Self("--lang", value: "L", help: "the voice's language: en (default) or ko")
    static let socket = Self(
        "--socket", value: "PATH", help: "runwayd's control socket (default /run/runway/control.sock)")

    static func logbook(_ help: String = "the logbook", required: Bool = true) -> Self {
        Self("--logbook", value: "FILE", help: help, required: required)
    }
}

extension CommandDeclaration.Argument {
    /// `ID`, a flight's number (read by `ParsedArguments.flightID`).
    static let flightID = Self("ID", help: "the flight's number (runway logbook)")
}
