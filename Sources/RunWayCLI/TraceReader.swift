import Foundation
import RunWayCore

/// A recorded GPS trace held whole in memory: for tests and small tools. `runway fly` streams
/// through `GPSTraceFile` instead.
public struct GPSTrace: Sendable {
    /// Fixes (mode ≥ 2) and no-fix reports (mode 1), one per time.
    public var reports: [Fix]
    public var diagnostics: [Diagnostic]

    public var fixes: [Fix] { reports.filter(\.hasPosition) }
}

/// A recorded barometer trace held whole in memory (tests); `runway fly` streams the file.
public struct PressureTrace: Sendable {
    public var samples: [PressureSample]
    public var diagnostics: [Diagnostic]
}

/// Reads the files `runway fly` flies: gpsd JSON (as `gpspipe -w` prints it) and a pressure CSV.
/// A bad line is reported with its number and skipped; the rest is still read.
public enum TraceReader {
    public static func gps(path: String) throws(CLIError) -> GPSTrace {
        try GPSTraceFile(LineReader(path: path)).collected()
    }

    public static func gps(text: String, name: String) -> GPSTrace {
        // In memory: the only failure left is the spool, which a test machine always has.
        (try? GPSTraceFile(LineReader(bytes: Array(text.utf8), name: name)).collected())
            ?? GPSTrace(reports: [], diagnostics: [])
    }

    /// One TPV line as a report, or why it is skipped; nil for lines that are quietly ignored
    /// (other classes, raw NMEA, TPVs without a time: gpsd's partial reports before the epoch's
    /// time is known). Field checks are `GPSReport.checked()`, the live client's.
    static func report(line text: String, problem: (String) -> Void) -> Fix? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed.hasPrefix("$") || trimmed.hasPrefix("!") || trimmed.hasPrefix("#") {
            return nil
        }
        guard let object = json(trimmed) else {
            problem("not a JSON object — line skipped")
            return nil
        }
        guard object["class"]?.stringValue == "TPV" else { return nil }
        guard let timeValue = object["time"] else { return nil }
        guard let timeText = timeValue.stringValue, let time = UTCTime.parse(timeText) else {
            problem("time \(describe(timeValue)) is not an ISO-8601 UTC time — line skipped")
            return nil
        }
        var mode = 0
        if let modeValue = object["mode"] {
            guard let m = number(modeValue), m == m.rounded(), abs(m) < 1000 else {
                problem("mode \(describe(modeValue)) is not a number — line skipped")
                return nil
            }
            mode = Int(m)
        }
        var fields: [String: Double] = [:]
        for key in ["speed", "track", "eph", "epx", "epy", "altMSL", "alt"] {
            guard let value = object[key] else { continue }
            if let n = number(value) {
                fields[key] = n
            } else {
                problem("\(key) \(describe(value)) is not a number — treated as unknown")
            }
        }
        let report = GPSReport(
            time: time, mode: mode, latitude: object["lat"].flatMap(number),
            longitude: object["lon"].flatMap(number), eph: fields["eph"], epx: fields["epx"],
            epy: fields["epy"],
            speed: fields["speed"], track: fields["track"], altitude: fields["altMSL"] ?? fields["alt"])
        switch report.checked() {
        case .rejected(let why):
            problem("\(why) — line skipped")
            return nil
        case .noFix(let time):
            guard let time else { return nil }
            return Fix(time: time, coordinate: Coordinate(latitude: 0, longitude: 0), mode: mode)
        case .fix(let fix, let dropped):
            for why in dropped { problem("\(why)") }
            return fix
        }
    }

    /// Indices of a longest subsequence whose values never decrease (patience sorting,
    /// O(n log n)); ties keep the earlier elements.
    static func longestNonDecreasing(_ values: [Double]) -> [Int] {
        var tails: [Int] = []  // tails[k]: index of the smallest tail of a run of length k + 1
        var parent = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[tails[mid]] <= v { low = mid + 1 } else { high = mid }
            }
            parent[i] = low > 0 ? tails[low - 1] : -1
            if low == tails.count { tails.append(i) } else { tails[low] = i }
        }
        var result: [Int] = []
        var k = tails.last ?? -1
        while k >= 0 {
            result.append(k)
            k = parent[k]
        }
        return result.reversed()
    }

    /// A line as a JSON object, read by the strict parser every outside JSON goes through
    /// (`JSONValue.parse`); nil for anything else. It takes what gpsd writes exactly as
    /// `JSONSerialization` did; of what gpsd never writes it refuses a key given twice (which
    /// `lat` is meant?) and a trailing comma, and the line is skipped. A byte-order mark (an
    /// editor's, before a file's first line) is skipped, as it was.
    static func json(_ line: String) -> JSONValue? {
        var bytes = Array(line.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let value = try? JSONValue.parse(bytes), case .object = value else { return nil }
        return value
    }

    /// A JSON number: not a string, not `true`/`false`. (The parser refuses `1e400`: no value
    /// is infinite.)
    static func number(_ value: JSONValue) -> Double? { value.numberValue.flatMap { $0.isFinite ? $0 : nil } }

    /// A value in a diagnostic, as the reader always wrote it: a string in quotes as it is,
    /// `<null>` for null; lists and objects as compact JSON.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): "\"\(s)\""
        case .null: "<null>"
        default: value.rendered()
        }
    }

    // MARK: Pressure CSV

    public static func pressure(path: String) throws(CLIError) -> PressureTrace {
        try PressureFile(LineReader(path: path)).collected()
    }

    public static func pressure(text: String, name: String) -> PressureTrace {
        (try? PressureFile(LineReader(bytes: Array(text.utf8), name: name)).collected())
            ?? PressureTrace(samples: [], diagnostics: [])
    }
}

/// A pressure CSV streamed row by row: `time,pressure_pa` with ISO-8601 UTC times; a header line
/// is optional. Rows that are bad or whose time does not advance are reported and skipped.
public final class PressureFile {
    public var name: String { rows.name }
    public var diagnostics: DiagnosticLog { rows.diagnostics }
    /// Samples delivered so far.
    public var count: Int { rows.count }
    private let rows: TimedRows

    public init(_ reader: LineReader) {
        rows = TimedRows(reader, columns: ["time", "pressure_pa"])
    }

    public func next() throws(CLIError) -> PressureSample? {
        try rows.next { time, fields in
            guard let pascals = DecimalText.number(fields[0]) else {
                return .refused("pressure \"\(fields[0])\" is not a number — row skipped")
            }
            let sample = PressureSample(time: time, pascals: pascals)
            guard sample.isPlausible else {
                return .refused("pressure \(fields[0]) Pa is outside 300–1100 hPa — row skipped")
            }
            return .sample(sample)
        }
    }

    func collected() throws(CLIError) -> PressureTrace {
        var samples: [PressureSample] = []
        while let sample = try next() { samples.append(sample) }
        return PressureTrace(samples: samples, diagnostics: diagnostics.kept)
    }
}
