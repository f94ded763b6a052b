extension RunWayCommand {
    /// `runway help [COMMAND]`.
    struct Help: Subcommand {
        static let declaration = CommandDeclaration(
            "help", group: .other, abstract: "the command list, or one command's options and examples",
            arguments: [.init("COMMAND", help: "the command to explain", required: false)],
            options: [
                .init(
                    "--reference", help: "every command's help, as the README's command reference (Markdown)")
            ],
            examples: ["runway help fly", "runway fly --help"])

        let topic: String?
        let reference: Bool

        init(_ arguments: ParsedArguments) throws(CLIError) {
            topic = arguments.argument("COMMAND")
            reference = arguments.flag("--reference")
            if let topic, RunWayCommand.command(named: topic) == nil {
                throw .usage("there is no command \"\(Diagnostic.escaped(topic))\" (runway help lists them)")
            }
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            if reference {
                console.out(RunWayCommand.reference)
            } else if let topic, let type = RunWayCommand.command(named: topic) {
                console.out(HelpText.help(type.declaration))
            } else {
                console.out(RunWayCommand.usage)
            }
            return 0
        }
    }

    /// `runway version` (and `runway --version`).
    struct Version: Subcommand {
        static let declaration = CommandDeclaration(
            "version", group: .other,
            abstract: "this build's version, the logbook schema and engine version it writes",
            examples: ["runway --version"])

        init(_ arguments: ParsedArguments) throws(CLIError) {}

        func run(console: Console) async throws(CLIError) -> Int32 {
            console.out(RunWayVersion.description)
            return 0
        }
    }

    /// The README's command reference: the command list, then each command's help.
    static var reference: String {
        var parts = ["```", usage, "```"]
        for d in declarations {
            parts += ["", "### runway \(d.name)", "", "```", HelpText.help(d), "```"]
        }
        return parts.joined(separator: "\n")
    }
}
