import RunWayCore

/// A body-sensor CSV streamed row by row: `time,heart_rate,cadence` with ISO-8601 UTC times, an
/// empty field for a value the sensors did not give (missing, never 0); a header line is
/// optional. As the pressure file's, a bad row is said with its line number and skipped, so one
/// garbled line does not cost a recorded run: a field that is not a number, a heart rate outside
/// 20–250 bpm or a cadence outside 0–300 spm (a strap's 0 is no contact: write it empty), a
/// wrong number of fields, a time that is not ISO-8601 or does not advance.
public final class BodyFile {
    public var name: String { rows.name }
    public var diagnostics: DiagnosticLog { rows.diagnostics }
    /// Samples delivered so far.
    public var count: Int { rows.count }
    private let rows: TimedRows

    public init(_ reader: LineReader) {
        rows = TimedRows(reader, columns: ["time", "heart_rate", "cadence"])
    }

    public func next() throws(CLIError) -> BodySample? {
        try rows.next(Self.sample)
    }

    private static func sample(at time: Double, _ fields: [String]) -> TimedRows.Row<BodySample> {
        var values: [Double?] = []
        for (field, what, range) in [(fields[0], "heart rate", 20.0...250), (fields[1], "cadence", 0...300)] {
            if field.isEmpty {
                values.append(nil)
                continue
            }
            guard let value = DecimalText.number(field) else {
                return .refused("\(what) \"\(field)\" is not a number (empty for missing) — row skipped")
            }
            guard range.contains(value) else {
                let unit = what == "cadence" ? "spm" : "bpm"
                return .refused(
                    "\(what) \(field) \(unit) is outside \(Int(range.lowerBound))–\(Int(range.upperBound)) (empty for missing) — row skipped"
                )
            }
            values.append(value)
        }
        // Nothing measured: nothing to fly.
        guard values.contains(where: { $0 != nil }) else { return .nothing }
        return .sample(BodySample(time: time, heartRate: values[0], cadence: values[1]))
    }
}
