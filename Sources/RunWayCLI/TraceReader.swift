import Foundation
import RunWayCore

/// A recorded GPS trace: the reports gpsd gave, one per epoch, in time order.
public struct GPSTrace: Sendable {
    /// Fixes (mode ≥ 2) and no-fix reports (mode 1), one per time.
    public var reports: [Fix]
    public var diagnostics: [Diagnostic]

    public var fixes: [Fix] { reports.filter(\.hasPosition) }
}

/// A recorded barometer trace.
public struct PressureTrace: Sendable {
    public var samples: [PressureSample]
    public var diagnostics: [Diagnostic]
}

/// Reads the files `runway fly` flies: gpsd JSON (as `gpspipe -w` prints it) and a pressure CSV.
/// A bad line is reported with its number and skipped; the rest is still read.
public enum TraceReader {
    public static func readText(_ path: String) throws(CLIError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                throw CLIError("cannot read \(path): no such file")
            }
            throw CLIError(
                isDirectory.boolValue
                    ? "cannot read \(path): it is a directory" : "cannot read \(path): permission denied")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIError("cannot read \(path): not UTF-8 text")
        }
        return text
    }

    // MARK: gpsd JSON

    public static func gps(path: String) throws(CLIError) -> GPSTrace {
        gps(text: try readText(path), name: path)
    }

    /// One JSON object per line; TPVs are used, every other class is ignored. gpsd sends several
    /// TPVs per epoch with the same time: the first with a position is kept. TPVs without a time
    /// (gpsd's partial reports before the epoch's time is known) are skipped silently.
    public static func gps(text: String, name: String) -> GPSTrace {
        var reports: [Fix] = []
        var diagnostics: [Diagnostic] = []
        var lastTime: Double?
        var lineNumber = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            func problem(_ message: String) {
                diagnostics.append(Diagnostic(file: name, line: lineNumber, message: message))
            }
            guard let data = trimmed.data(using: .utf8),
                let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            else {
                problem("not a JSON object — line skipped")
                continue
            }
            guard object["class"] as? String == "TPV" else { continue }
            guard let timeValue = object["time"] else { continue }
            guard let timeText = timeValue as? String, let time = UTCTime.parse(timeText) else {
                problem("time \(describe(timeValue)) is not an ISO-8601 UTC time — line skipped")
                continue
            }
            let mode = number(object["mode"]).map { Int($0) } ?? 0
            if let last = lastTime {
                if time < last {
                    problem(
                        "time \(timeText) goes backwards (previous fix \(UTCTime.format(last))) — line skipped"
                    )
                    continue
                }
                if time == last, reports.last?.hasPosition == true || mode < 2 { continue }
                if time == last { reports.removeLast() }  // a no-fix report, superseded by a fix
            }
            if mode < 2 {
                reports.append(Fix(time: time, coordinate: Coordinate(latitude: 0, longitude: 0), mode: mode))
                lastTime = time
                continue
            }
            guard let lat = number(object["lat"]), let lon = number(object["lon"]) else {
                problem("mode \(mode) TPV without a numeric lat and lon — line skipped")
                continue
            }
            let coordinate = Coordinate(latitude: lat, longitude: lon)
            guard coordinate.isValid else {
                problem("position \(lat), \(lon) is not on Earth — line skipped")
                continue
            }
            var fields: [String: Double] = [:]
            for key in ["speed", "track", "eph", "epx", "epy", "altMSL", "alt"] {
                guard let value = object[key] else { continue }
                if let n = number(value), n.isFinite {
                    fields[key] = n
                } else {
                    problem("\(key) \(describe(value)) is not a number — treated as unknown")
                }
            }
            let accuracy = fields["eph"] ?? zip2(fields["epx"], fields["epy"]).map { max($0, $1) }
            reports.append(
                Fix(
                    time: time, coordinate: coordinate, horizontalAccuracy: accuracy, speed: fields["speed"],
                    track: fields["track"], altitude: fields["altMSL"] ?? fields["alt"], mode: mode))
            lastTime = time
        }
        return GPSTrace(reports: reports, diagnostics: diagnostics)
    }

    static func zip2(_ a: Double?, _ b: Double?) -> (Double, Double)? {
        guard let a, let b else { return nil }
        return (a, b)
    }

    /// A JSON number. (Foundation bridges 0 and 1 to `Bool` too, so no `Bool` test here: none
    /// of the TPV fields read is a boolean.)
    static func number(_ value: Any?) -> Double? {
        guard let value, !(value is String) else { return nil }
        if let n = value as? NSNumber { return n.doubleValue }
        return value as? Double
    }

    static func describe(_ value: Any) -> String {
        if let s = value as? String { return "\"\(s)\"" }
        return "\(value)"
    }

    // MARK: Pressure CSV

    public static func pressure(path: String) throws(CLIError) -> PressureTrace {
        pressure(text: try readText(path), name: path)
    }

    /// `time,pressure_pa` rows with ISO-8601 UTC times; a header line is optional.
    public static func pressure(text: String, name: String) -> PressureTrace {
        var samples: [PressureSample] = []
        var diagnostics: [Diagnostic] = []
        var lineNumber = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            func problem(_ message: String) {
                diagnostics.append(Diagnostic(file: name, line: lineNumber, message: message))
            }
            let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if samples.isEmpty, diagnostics.isEmpty, fields.first?.lowercased() == "time" { continue }
            guard fields.count == 2 else {
                problem("expected 2 fields (time,pressure_pa), found \(fields.count) — row skipped")
                continue
            }
            guard let time = UTCTime.parse(fields[0]) else {
                problem("time \"\(fields[0])\" is not an ISO-8601 UTC time — row skipped")
                continue
            }
            guard let pascals = Double(fields[1]), pascals.isFinite else {
                problem("pressure \"\(fields[1])\" is not a number — row skipped")
                continue
            }
            let sample = PressureSample(time: time, pascals: pascals)
            guard sample.isPlausible else {
                problem("pressure \(fields[1]) Pa is outside 300–1100 hPa — row skipped")
                continue
            }
            if let last = samples.last, time <= last.time {
                problem(
                    "time \(fields[0]) does not advance (previous \(UTCTime.format(last.time))) — row skipped"
                )
                continue
            }
            samples.append(sample)
        }
        return PressureTrace(samples: samples, diagnostics: diagnostics)
    }
}
