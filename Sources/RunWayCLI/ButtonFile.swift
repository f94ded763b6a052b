import RunWayCore

/// A button log streamed row by row (issue 27: `runway fly --buttons`, so a trace shows what the
/// board would have done with the runner's presses): `time,button` with ISO-8601 UTC times and
/// `start`, `pause` (the PAUSE button: it toggles), `resume` or `end` (END held). As the other
/// timed files, a header is optional and a bad row is said with its line number and skipped.
public final class ButtonFile {
    public static let buttons = ["start", "pause", "resume", "end", "lap"]

    public var name: String { rows.name }
    public var diagnostics: DiagnosticLog { rows.diagnostics }
    private let rows: TimedRows

    public init(_ reader: LineReader) {
        rows = TimedRows(reader, columns: ["time", "button"])
    }

    /// Every press, in time order.
    public func all() throws(CLIError) -> [EngineInput] {
        var presses: [EngineInput] = []
        while let press = try rows.next(Self.press) { presses.append(press) }
        return presses
    }

    private static func press(at time: Double, _ fields: [String]) -> TimedRows.Row<EngineInput> {
        switch fields[0].lowercased() {
        case "start": .sample(.start(at: time, mission: nil, countdown: false))
        case "pause": .sample(.togglePause(at: time))
        case "resume": .sample(.resume(at: time))
        case "end": .sample(.end(at: time, sentAt: nil))
        case "lap": .sample(.lap(at: time))
        case "": .nothing
        default:
            .refused(
                "button \"\(fields[0])\" is not one of \(buttons.joined(separator: ", ")) — row skipped")
        }
    }
}
