import Foundation
import Testing

@testable import RunWayCLI

/// A console that keeps what was written, as a terminal or not.
final class CapturedConsole: @unchecked Sendable {
    // @unchecked Sendable: `out` and `err` are only touched while `lock` is held.
    private let lock = NSLock()
    private var outText: [String] = []
    private var errText: [String] = []
    private var raw: [String] = []

    var stdout: String { lock.withLock { outText.joined(separator: "\n") } }
    var stderr: String { lock.withLock { errText.joined(separator: "\n") } }
    var progress: String { lock.withLock { raw.joined() } }

    func console(terminal: Bool = false, noColor: Bool = false) -> Console {
        Console(
            out: { text in self.lock.withLock { self.outText.append(text) } },
            err: { text in self.lock.withLock { self.errText.append(text) } }, isTerminal: terminal,
            errIsTerminal: terminal, noColor: noColor,
            progress: { text in self.lock.withLock { self.raw.append(text) } })
    }

    static func run(_ arguments: [String]) async -> (status: Int32, stdout: String, stderr: String) {
        let captured = CapturedConsole()
        let status = await RunWayCommand.main(arguments, console: captured.console())
        return (status, captured.stdout, captured.stderr)
    }
}

/// Every command's help, usage and usage errors come from its declaration; these check each one.
@Suite("runway: commands declared once")
struct CommandLineTests {
    static let names = RunWayCommand.declarations.map(\.name)

    @Test(arguments: names)
    func everyCommandHasHelpThatNamesEveryOptionAndAnExample(_ name: String) async throws {
        let declaration = try #require(RunWayCommand.command(named: name)).declaration
        let viaFlag = await CapturedConsole.run([name, "--help"])
        let viaHelp = await CapturedConsole.run(["help", name])
        #expect(viaFlag.status == 0 && viaHelp.status == 0)
        #expect(viaFlag.stdout == viaHelp.stdout)
        #expect(
            viaFlag.stdout.replacingOccurrences(of: "\n  ", with: " ").hasPrefix(
                "runway \(name): \(declaration.abstract)"))
        let usage = HelpText.usage(declaration)
        #expect(viaFlag.stdout.contains(usage))
        for option in declaration.options {
            #expect(viaFlag.stdout.contains("  \(option.name)"), "\(name): \(option.name) missing from help")
            #expect(usage.contains(option.name), "\(name): \(option.name) missing from usage")
        }
        for argument in declaration.arguments { #expect(usage.contains(argument.name)) }
        #expect(!declaration.examples.isEmpty, "\(name) has no example")
        for example in declaration.examples { #expect(example.contains("runway ")) }
        // Every line fits a terminal.
        for line in viaFlag.stdout.split(separator: "\n") where !line.hasPrefix("  runway") {
            #expect(line.count <= HelpText.width, "\(name): \(line)")
        }
        // And the command list names it with its abstract's start.
        let list = await CapturedConsole.run(["help"])
        #expect(list.stdout.contains("  \(name) "))
    }

    @Test(arguments: names)
    func anUnknownOptionIsNamedWithThatCommandsUsage(_ name: String) async throws {
        let declaration = try #require(RunWayCommand.command(named: name)).declaration
        let result = await CapturedConsole.run([name, "--bogus-option"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("runway: \(name) has no option --bogus-option"))
        #expect(result.stderr.contains(HelpText.usage(declaration)))
        #expect(result.stderr.contains("Try 'runway help \(name)'."))
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: names)
    func eachMissingRequirementAndEachValuelessOptionIsAUsageError(_ name: String) async throws {
        let declaration = try #require(RunWayCommand.command(named: name)).declaration
        let required = declaration.options.filter(\.required)
        let arguments = declaration.arguments.filter(\.required)
        // With nothing given, a command that needs something says what it needs.
        if !required.isEmpty || !arguments.isEmpty {
            let bare = await CapturedConsole.run([name])
            #expect(bare.status == 2, "\(name)")
            #expect(bare.stderr.contains("runway: \(name) needs "), "\(bare.stderr)")
            #expect(bare.stderr.contains(HelpText.usage(declaration)))
        }
        for option in declaration.options {
            if option.isFlag {
                let result = await CapturedConsole.run([name, "\(option.name)=yes"])
                #expect(result.status == 2 && result.stderr.contains("\(option.name) takes no value"))
                let twice = await CapturedConsole.run([name, option.name, option.name])
                #expect(twice.status == 2 && twice.stderr.contains("\(option.name) is given twice"))
            } else {
                let result = await CapturedConsole.run([name, option.name])
                #expect(
                    result.status == 2 && result.stderr.contains("\(option.name) needs a value"),
                    "\(result.stderr)")
                let stolen = await CapturedConsole.run([name, option.name, "--json"])
                #expect(stolen.status == 2 && stolen.stderr.contains("needs a value, not the option --json"))
            }
        }
        // One argument too many.
        let extra = await CapturedConsole.run(
            [name] + declaration.arguments.map { _ in "1" } + ["surplus"]
                + required.flatMap { [$0.name, "x"] })
        #expect(extra.status == 2, "\(name): \(extra.stderr)")
        #expect(extra.stderr.contains("surplus"))
    }

    @Test func optionsComeInAnyOrderWithEqualsOrSpaceAndDoubleDashEndsThem() throws {
        let d = RunWayCommand.Replay.declaration
        let a = try ParsedArguments(["--at", "1:00", "3", "--logbook=/x.sqlite"], for: d)
        let b = try ParsedArguments(["3", "--logbook", "/x.sqlite", "--at=1:00"], for: d)
        #expect(a.argument("ID") == "3" && b.argument("ID") == "3")
        #expect(a.value("--at") == "1:00" && b.value("--at") == "1:00")
        #expect(a.value("--logbook") == "/x.sqlite" && b.value("--logbook") == "/x.sqlite")
        // After --, a name that starts with a dash is an argument.
        let salvage = try ParsedArguments(
            ["--to", "new.sqlite", "--", "--odd-name.sqlite"], for: RunWayCommand.Salvage.declaration)
        #expect(salvage.argument("DAMAGED") == "--odd-name.sqlite")
        // A negative number is a value, not an option.
        let zone = try ParsedArguments(["--utc-offset", "-3:30"], for: RunWayCommand.Calendar.declaration)
        #expect(zone.value("--utc-offset") == "-3:30")
        #expect(throws: CLIError.self) { try ParsedArguments(["3", "-x"], for: d) }
    }

    @Test func misspellingsAreAnsweredWithTheNearestName() async {
        let command = await CapturedConsole.run(["calender"])
        #expect(command.status == 2 && command.stderr.contains("did you mean calendar?"))
        let option = await CapturedConsole.run(["logbook", "--fligth", "3"])
        #expect(option.status == 2 && option.stderr.contains("did you mean --flight?"))
        let none = await CapturedConsole.run(["zzzzzzzz"])
        #expect(none.status == 2 && !none.stderr.contains("did you mean"))
    }

    @Test func exitCodesAreZeroOneAndTwo() async {
        #expect(await CapturedConsole.run(["help"]).status == 0)
        #expect(await CapturedConsole.run([]).status == 2)
        let failed = await CapturedConsole.run(["logbook", "--logbook", "/nonexistent/dir/x.sqlite"])
        #expect(failed.status == 1 && !failed.stderr.contains("usage:"))
        #expect(await CapturedConsole.run(["help", "nothing"]).status == 2)
    }

    /// The README's command reference is what `runway help --reference` prints; run with
    /// RUNWAY_UPDATE_GOLDEN=1 to rewrite it after changing a declaration.
    @Test func theREADMEsCommandReferenceIsTheDeclarations() throws {
        let path = RunWayBinary.root.appendingPathComponent("README.md").path
        let readme = try String(contentsOfFile: path, encoding: .utf8)
        let begin =
            "<!-- command reference: generated by `runway help --reference`; checked by CommandLineTests -->"
        let end = "<!-- end of command reference -->"
        let start = try #require(readme.range(of: begin), "README has no command reference")
        let stop = try #require(readme.range(of: end))
        let current = String(readme[start.upperBound..<stop.lowerBound])
        let wanted = "\n" + RunWayCommand.reference + "\n"
        if current != wanted, ProcessInfo.processInfo.environment["RUNWAY_UPDATE_GOLDEN"] == "1" {
            try (readme[..<start.upperBound] + wanted + readme[stop.lowerBound...]).write(
                toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            current == wanted,
            "README's command reference is stale: RUNWAY_UPDATE_GOLDEN=1 swift test --filter CommandLineTests"
        )
    }
}

@Suite("Colour, cursor movement and progress only where they belong")
struct StylingTests {
    @Test func theProgressLineWaitsASecondThrottlesAndClears() {
        let captured = CapturedConsole()
        var now = 0.0
        let line = ProgressLine("exporting", console: captured.console(terminal: true), clock: { now })
        line.update(0.1)
        #expect(captured.progress.isEmpty)  // under a second: nothing
        now = 1.2
        line.update(0.5)
        now = 1.3
        line.update(0.6)  // within 0.2 s of the last: not redrawn
        now = 2.0
        line.update(0.9)
        line.finish()
        #expect(
            captured.progress == "\r\u{1B}[Kexporting 50 % (0:01)\r\u{1B}[Kexporting 90 % (0:02)\r\u{1B}[K")
        for console in [captured.console(terminal: false), captured.console(terminal: true, noColor: true)] {
            let quiet = CapturedConsole()
            let plain = ProgressLine(
                "x",
                console: Console(
                    out: console.out, err: console.err, isTerminal: console.isTerminal,
                    errIsTerminal: console.errIsTerminal,
                    noColor: console.noColor, progress: { text in quiet.console().out(text) }), clock: { now }
            )
            now += 5
            plain.update(0.5)
            plain.finish()
            #expect(quiet.stdout.isEmpty)
        }
    }

    @Test func theCalendarIsShadedOnlyOnATerminalWithoutNO_COLOR() async throws {
        let logbook = CalendarCommandTests.logbook
        func calendar(terminal: Bool, noColor: Bool) async -> String {
            let captured = CapturedConsole()
            _ = await RunWayCommand.main(
                ["calendar", "2026-10", "--logbook", logbook, "--utc-offset", "0"],
                console: captured.console(terminal: terminal, noColor: noColor))
            return captured.stdout
        }
        #expect(await calendar(terminal: true, noColor: false).contains("\u{1B}["))
        #expect(!(await calendar(terminal: true, noColor: true)).contains("\u{1B}"))
        #expect(!(await calendar(terminal: false, noColor: false)).contains("\u{1B}"))
    }

    /// The real process: NO_COLOR on a real terminal (a pty from script(1)), and a pipe.
    @Test func theBinaryHonoursNO_COLOROnARealTerminal() async throws {
        let logbook = CalendarCommandTests.logbook
        let command = "\"$RUNWAY\" calendar 2026-10 --logbook '\(logbook)' --utc-offset 0"
        // (The test runner may itself run with NO_COLOR set.)
        let tty = try await RunWayBinary.shell(
            "env -u NO_COLOR script -qec '\(command.replacingOccurrences(of: "'", with: "'\\''"))' /dev/null")
        #expect(tty.stdout.contains("\u{1B}[48;5;"), "\(tty.stdout)")
        let noColor = try await RunWayBinary.shell(
            "NO_COLOR=1 script -qec '\(command.replacingOccurrences(of: "'", with: "'\\''"))' /dev/null")
        #expect(noColor.stdout.contains("10.4") && !noColor.stdout.contains("\u{1B}"), "\(noColor.stdout)")
        let piped = try await RunWayBinary.shell("\(command) | cat")
        #expect(piped.stdout.contains("10.4") && !piped.stdout.contains("\u{1B}"))
    }
}
