/// The `runway` command line: the commands, each declared once (see `CommandDeclaration`).
public enum RunWayCommand {
    /// Every command, in the order the command list shows them within their groups.
    static let commands: [any Subcommand.Type] = [
        Demo.self, Fly.self, Replay.self, Calendar.self, Week.self,
        LogbookList.self, Export.self, Drive.self, Delete.self, Salvage.self, Reprocess.self,
        Status.self, Start.self, Pause.self, Resume.self, Stop.self, ExportFinished.self,
        GPS.self, Checklist.self, Baro.self, Buttons.self, Buzz.self, Say.self, Simulate.self,
        Help.self, Version.self,
    ]

    static var declarations: [CommandDeclaration] { commands.map { $0.declaration } }

    static func command(named name: String) -> (any Subcommand.Type)? {
        commands.first { $0.declaration.name == name }
    }

    /// The command list (`runway help`).
    public static var usage: String { HelpText.commandList(declarations) }

    public static func main(_ arguments: [String], console: Console = .standard) async -> Int32 {
        guard var name = arguments.first else {
            console.err(usage)
            return 2
        }
        var rest = Array(arguments.dropFirst())
        switch name {
        case "--help", "-h": name = "help"
        case "--version": name = "version"
        case "show":  // `runway show ID` reads as `runway logbook --flight ID`
            name = "logbook"
            if let id = rest.first, !id.hasPrefix("-") { rest = ["--flight", id] + rest.dropFirst() }
        default: break
        }
        guard let type = command(named: name) else {
            let near = declarations.map(\.name).min {
                ParsedArguments.distance($0, name) < ParsedArguments.distance($1, name)
            }
            let hint =
                near.map { ParsedArguments.distance($0, name) <= 2 ? "; did you mean \($0)?" : "" } ?? ""
            console.err("runway: unknown command \"\(Diagnostic.escaped(name))\"\(hint)")
            console.err("Try 'runway help'.")
            return 2
        }
        let declaration = type.declaration
        do {
            let parsed = try ParsedArguments(rest, for: declaration)
            if parsed.wantsHelp {
                console.out(HelpText.help(declaration))
                return 0
            }
            return try await type.init(parsed).run(console: console)
        } catch {
            console.err("runway: \(error.message)")
            if error.exitCode == 2 {
                console.err(HelpText.usage(declaration))
                console.err("Try 'runway help \(declaration.name)'.")
            }
            return error.exitCode
        }
    }
}

/// Prints the first `limit` diagnostics and counts the rest, so a broken file says what is wrong
/// without burying the result.
func report(_ diagnostics: DiagnosticLog, console: Console, limit: Int = 20) {
    for diagnostic in diagnostics.kept.prefix(limit) { console.err("runway: \(diagnostic)") }
    if diagnostics.total > limit {
        console.err("runway: … and \(diagnostics.total - limit) more problems")
    }
}
