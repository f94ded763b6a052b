/// The `runway` command line: the commands, each declared once (see `CommandDeclaration`).
public enum RunWayCommand {
    /// Every command, in the order the command list shows them within their groups.
    static let commands: [any Subcommand.Type] = [
        Demo.self, Fly.self, Replay.self, Calendar.self, Week.self,
        LogbookList.self, Export.self, Drive.self, Delete.self, Salvage.self, Reprocess.self, Trim.self,
        Status.self, Start.self, Pause.self, Resume.self, Lap.self, Stop.self, ExportFinished.self,
        SensorsScan.self, SensorsPair.self, SensorsForget.self, SensorsList.self,
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
        // `runway sensors scan` (and `runway help sensors scan`): a group's commands are named by
        // two words.
        if name == "help", rest.first == "sensors", rest.count > 1 {
            rest = ["sensors " + rest[1]] + rest.dropFirst(2)
        }
        if name == "sensors" {
            guard let action = rest.first, !action.hasPrefix("-"), command(named: "sensors " + action) != nil
            else {
                let group = declarations.filter { $0.group == .sensors }
                console.err(
                    "runway: sensors takes \(group.map { $0.name.dropFirst(8) }.joined(separator: ", ")); "
                        + "'runway help sensors scan' shows one")
                for d in group { console.err(HelpText.usage(d)) }
                return rest.first.map { $0 == "--help" || $0 == "-h" } == true ? 0 : 2
            }
            name = "sensors " + action
            rest.removeFirst()
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
