import RunWayCore

/// A body-sensor CSV streamed row by row: `time,heart_rate,cadence` with ISO-8601 UTC times, an
/// empty field for a value the sensors did not give (missing, never 0); a header line is
/// optional. As the pressure file's, a bad row is said with its line number and skipped, so one
/// garbled line does not cost a recorded run: a field that is not a number, a heart rate outside
/// 20–250 bpm or a cadence outside 0–300 spm (a strap's 0 is no contact: write it empty), a
/// wrong number of fields, a time that is not ISO-8601 or does not advance.
public final class BodyFile {
    public let name: String
    public private(set) var diagnostics = DiagnosticLog()
    /// Samples delivered so far.
    public private(set) var count = 0
    private let reader: LineReader
    private var last: BodySample?

    public init(_ reader: LineReader) {
        self.reader = reader
        name = reader.name
    }

    public func next() throws(CLIError) -> BodySample? {
        while let line = try reader.next() {
            if let sample = take(line) {
                count += 1
                last = sample
                return sample
            }
        }
        return nil
    }

    private func take(_ line: LineReader.Line) -> BodySample? {
        func problem(_ message: String) -> BodySample? {
            diagnostics.append(Diagnostic(file: name, line: line.number, message: message))
            return nil
        }
        if let why = line.problem { return problem(why) }
        guard let text = line.text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if count == 0, diagnostics.total == 0, fields.first?.lowercased() == "time" { return nil }
        guard fields.count == 3 else {
            return problem("expected 3 fields (time,heart_rate,cadence), found \(fields.count) — row skipped")
        }
        guard let time = UTCTime.parse(fields[0]) else {
            return problem("time \"\(fields[0])\" is not an ISO-8601 UTC time — row skipped")
        }
        var values: [Double?] = []
        for (field, what, range) in [(fields[1], "heart rate", 20.0...250), (fields[2], "cadence", 0...300)] {
            if field.isEmpty {
                values.append(nil)
                continue
            }
            guard let value = DecimalText.number(field) else {
                return problem("\(what) \"\(field)\" is not a number (empty for missing) — row skipped")
            }
            guard range.contains(value) else {
                let unit = what == "cadence" ? "spm" : "bpm"
                return problem(
                    "\(what) \(field) \(unit) is outside \(Int(range.lowerBound))–\(Int(range.upperBound)) (empty for missing) — row skipped"
                )
            }
            values.append(value)
        }
        if let last, time <= last.time {
            return problem(
                "time \(fields[0]) does not advance (previous \(UTCTime.format(last.time))) — row skipped")
        }
        guard values.contains(where: { $0 != nil }) else { return nil }  // nothing measured: nothing to fly
        return BodySample(time: time, heartRate: values[0], cadence: values[1])
    }
}
