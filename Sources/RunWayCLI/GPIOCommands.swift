import Foundation
import RunWayCore
import RunWayHardware

/// `runway buttons` and `runway buzz`: the GPIO parts alone, for a maintainer wiring a board.
public enum GPIOCommands {
    /// Pattern names as `runway buzz` takes them: every callout's, GPS ready, too short, the END
    /// hold's beep, the export's two and each fault's (`BuzzerPattern.named`).
    public static let patterns = BuzzerPattern.named

    public static func buzz(name: String, chip: String, line: Int, simulated: Bool, console: Console)
        throws(CLIError)
        -> Int32
    {
        guard let named = patterns.first(where: { $0.name == name }) else {
            throw .usage("unknown pattern \"\(name)\" (\(patterns.map(\.name).joined(separator: ", ")))")
        }
        var player = PatternPlayer()
        player.play(named.pattern, urgent: named.urgent, at: 0)
        var timeline: [(time: Double, on: Bool)] = [(0, true)]
        timeline += player.advance(to: .infinity)
        if simulated {
            for step in timeline {
                console.out("\(String(format: "%5.0f", step.time * 1000)) ms  \(step.on ? "ON" : "off")")
            }
            return 0
        }
        let output: GpiodOutputLine
        do {
            output = try GpiodOutputLine(chip: try GpiodChip(chip), line: line)
        } catch {
            throw CLIError(error.description)
        }
        let start = Date()
        for step in timeline {
            let wait = step.time - Date().timeIntervalSince(start)
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            output.set(step.on)
        }
        output.set(false)
        return 0
    }

    /// - Parameter buzzer: a buzzer line to confirm a long press with its beep, so the runner
    ///   knows when to let go.
    public static func buttons(chip: String, buttons: [ButtonConfiguration], buzzer: Int?, console: Console)
        throws(CLIError) -> Int32
    {
        let lines: GpiodButtonLines
        var beeper: GpiodOutputLine?
        do {
            let gpio = try GpiodChip(chip)
            lines = try GpiodButtonLines(chip: gpio, buttons: buttons)
            if let buzzer { beeper = try GpiodOutputLine(chip: gpio, line: buzzer) }
        } catch {
            throw CLIError(error.description)
        }
        console.out(
            "Watching "
                + buttons.map { "\($0.role.rawValue) on line \($0.line)" }.joined(separator: ", ")
                + "; Ctrl-C to stop.")
        var decoder = ButtonDecoder(roles: buttons.map(\.role))
        ButtonReader.run(lines: lines, decoder: &decoder) { press in
            switch press {
            case .short(let role, _): console.out("short \(role.rawValue)")
            case .long(let role, _):
                console.out("long \(role.rawValue) (held 2 s — you can let go)")
                if let beeper {
                    beeper.set(true)
                    Thread.sleep(forTimeInterval: BuzzerPattern.holdConfirmed.duration)
                    beeper.set(false)
                }
            }
        }
        return 0
    }
}
