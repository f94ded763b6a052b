import Foundation
import RunWayCore

/// The rows of a timed CSV (`runway fly`'s `--pressure` and `--body` files), streamed: the first
/// field an ISO-8601 UTC time, then the file's values. One set of rules for both: a header line
/// (first field `time`) is optional, blank and `#` lines are skipped, and a bad row is said with
/// its line number and skipped, so one garbled line does not cost a recorded run — a wrong
/// number of fields, a time that is not ISO-8601 or does not advance, or a value its file refuses.
final class TimedRows {
    /// What a file makes of one row's values (the fields after the time).
    enum Row<Sample> {
        case sample(Sample)
        /// A row with nothing in it to fly (every value empty): skipped without a word.
        case nothing
        /// Why the row is refused, said with its line number.
        case refused(String)
    }

    let name: String
    private(set) var diagnostics = DiagnosticLog()
    /// Rows delivered so far.
    private(set) var count = 0
    private let reader: LineReader
    /// The header, as a refusal of a row with the wrong number of fields names it.
    private let columns: [String]
    private var lastTime: Double?

    init(_ reader: LineReader, columns: [String]) {
        self.reader = reader
        self.columns = columns
        name = reader.name
    }

    /// The next row `parse` makes a sample of, with its time; nil at the end of the file.
    func next<Sample>(_ parse: (_ time: Double, _ values: [String]) -> Row<Sample>) throws(CLIError)
        -> Sample?
    {
        while let line = try reader.next() {
            guard let (time, written, values) = fields(of: line) else { continue }
            let row = parse(time, values)
            if case .refused(let why) = row {
                note(line, why)
                continue
            }
            if let lastTime, time <= lastTime {
                note(
                    line,
                    "time \(written) does not advance (previous \(UTCTime.format(lastTime))) — row skipped")
                continue
            }
            guard case .sample(let sample) = row else { continue }
            count += 1
            lastTime = time
            return sample
        }
        return nil
    }

    /// The row's time (and as written) and its other fields; nil for a line to skip (said when
    /// it is a bad one).
    private func fields(of line: LineReader.Line) -> (Double, String, [String])? {
        if let why = line.problem { return note(line, why) }
        guard let text = line.text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if count == 0, diagnostics.total == 0, fields.first?.lowercased() == "time" { return nil }
        guard fields.count == columns.count else {
            let header = columns.joined(separator: ",")
            return note(
                line, "expected \(columns.count) fields (\(header)), found \(fields.count) — row skipped")
        }
        guard let time = UTCTime.parse(fields[0]) else {
            return note(line, "time \"\(fields[0])\" is not an ISO-8601 UTC time — row skipped")
        }
        return (time, fields[0], Array(fields.dropFirst()))
    }

    @discardableResult
    private func note(_ line: LineReader.Line, _ message: String) -> (Double, String, [String])? {
        diagnostics.append(Diagnostic(file: name, line: line.number, message: message))
        return nil
    }
}
