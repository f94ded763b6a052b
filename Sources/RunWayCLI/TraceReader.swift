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

    /// One JSON object per line; TPVs are used, every other class is ignored, and so are raw
    /// NMEA sentences (`gpspipe -r -w` interleaves them). gpsd sends several TPVs per epoch with
    /// the same time: the first with a position is kept. TPVs without a time (gpsd's partial
    /// reports before the epoch's time is known) are skipped silently.
    ///
    /// Times must advance. When one does not, either it is wrong or the one before it was: a
    /// receiver can report a bad date once (the bt451 capture starts a day ahead). The reader keeps
    /// the longest run of reports whose times never go backwards and reports the others, so one
    /// bad timestamp costs one line, never the rest of the trace.
    public static func gps(text: String, name: String) -> GPSTrace {
        var candidates: [(line: Int, fix: Fix, timeText: String)] = []
        var diagnostics: [Diagnostic] = []
        var lineNumber = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.hasPrefix("$") || trimmed.hasPrefix("!") || trimmed.hasPrefix("#") {
                continue
            }
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
            if mode < 2 {
                let noFix = Fix(time: time, coordinate: Coordinate(latitude: 0, longitude: 0), mode: mode)
                candidates.append((lineNumber, noFix, timeText))
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
            let accuracy = Fix.horizontalAccuracy(eph: fields["eph"], epx: fields["epx"], epy: fields["epy"])
            let fix = Fix(
                time: time, coordinate: coordinate, horizontalAccuracy: accuracy, speed: fields["speed"],
                track: fields["track"], altitude: fields["altMSL"] ?? fields["alt"], mode: mode)
            candidates.append((lineNumber, fix, timeText))
        }

        let kept = Set(longestNonDecreasing(candidates.map(\.fix.time)))
        var reports: [Fix] = []
        var previousKept: Double?
        for (index, candidate) in candidates.enumerated() {
            guard kept.contains(index) else {
                let message =
                    previousKept.map { candidate.fix.time < $0 } ?? false
                    ? "time \(candidate.timeText) goes backwards (previous fix \(UTCTime.format(previousKept!))) — line skipped"
                    : "time \(candidate.timeText) is ahead of the fixes that follow it — line skipped"
                diagnostics.append(Diagnostic(file: name, line: candidate.line, message: message))
                continue
            }
            previousKept = candidate.fix.time
            if let last = reports.last, last.time == candidate.fix.time {
                // One report per epoch: the first fix; a fix supersedes a no-fix report.
                if last.hasPosition || !candidate.fix.hasPosition { continue }
                reports.removeLast()
            }
            reports.append(candidate.fix)
        }
        diagnostics.sort { ($0.line ?? 0) < ($1.line ?? 0) }
        return GPSTrace(
            reports: contiguous(reports, name: name, diagnostics: &diagnostics), diagnostics: diagnostics)
    }

    /// A trace is one run: a forward jump longer than `maxGap` (a date error, or two sessions in
    /// one file) splits it, and the part with the most fixes is kept; the rest is reported.
    static func contiguous(
        _ reports: [Fix], name: String, maxGap: Double = 1800, diagnostics: inout [Diagnostic]
    ) -> [Fix] {
        var parts: [ArraySlice<Fix>] = []
        var start = 0
        for i in reports.indices.dropFirst() where reports[i].time - reports[i - 1].time > maxGap {
            parts.append(reports[start..<i])
            start = i
        }
        parts.append(reports[start..<reports.endIndex])
        guard parts.count > 1,
            let best = parts.indices.max(by: {
                parts[$0].filter(\.hasPosition).count < parts[$1].filter(\.hasPosition).count
            })
        else { return reports }
        for (index, part) in parts.enumerated() where index != best {
            guard let first = part.first, let last = part.last else { continue }
            diagnostics.append(
                Diagnostic(
                    file: name, line: nil,
                    message:
                        "\(part.count) report\(part.count == 1 ? "" : "s") from \(UTCTime.format(first.time)) to \(UTCTime.format(last.time)) "
                        + "are more than \(Int(maxGap / 60)) minutes away from the rest of the run — skipped")
            )
        }
        return Array(parts[best])
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
