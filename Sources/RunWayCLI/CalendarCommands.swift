import Foundation
import RunWayCore
import RunWayStore

/// The seed's Flight Calendar and weekly chart in a terminal: `runway calendar [YYYY-MM]`, the
/// day list `runway calendar YYYY-MM-DD`, and `runway week [DATE]`. Days are the runner's local
/// days (`LocalZone`, each run's own offset); runs are finished and recovered flights, each
/// counted once (a reprocessed flight stands for the one it replaced).
public enum CalendarCommands {
    /// A run on a local day.
    struct Run {
        var entry: LogbookEntry
        var day: Int  // days since 1970-01-01, local
        var clock: String
    }

    static func runs(_ path: String, zone: LocalZone, console: Console) throws(CLIError) -> [Run] {
        let logbook = try LogbookCommands.open(path, access: .readOnly, console: console)
        let entries: [LogbookEntry]
        do {
            entries = try logbook.entries()
        } catch {
            throw CLIError.logbook(path, error)
        }
        LogbookCommands.sayDamage(logbook, console: console)
        return entries.filter { $0.status == .finished || $0.status == .recovered }.map {
            let local = Int($0.startTime.rounded(.down)) + zone.offset(at: $0.startTime)
            let day = Int((Double(local) / 86_400).rounded(.down))
            return Run(entry: $0, day: day, clock: zone.components($0.startTime).time)
        }
    }

    /// `2026-10` or `2026-10-03` → (year, month, day?).
    static func parseDate(_ text: String) -> (year: Int, month: Int, day: Int?)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[0].count == 4, parts[1].count == 2,
            let year = DecimalText.whole(parts[0]), let month = DecimalText.whole(parts[1]),
            (1...12).contains(month)
        else { return nil }
        guard parts.count == 3 else { return (year, month, nil) }
        guard parts[2].count == 2, let day = DecimalText.whole(parts[2]),
            (1...daysIn(year, month)).contains(day)
        else { return nil }
        return (year, month, day)
    }

    static func daysIn(_ year: Int, _ month: Int) -> Int {
        let next = month == 12 ? (year + 1, 1) : (year, month + 1)
        return epochDay(next.0, next.1, 1) - epochDay(year, month, 1)
    }

    static func epochDay(_ year: Int, _ month: Int, _ day: Int) -> Int {
        UTCTime.daysFromCivil(year: year, month: month, day: day)
    }

    static func date(_ epochDay: Int) -> String { UTCTime.components(epochDay * 86_400).date }

    /// Monday = 0.
    static func weekday(_ epochDay: Int) -> Int { ((epochDay % 7) + 7 + 3) % 7 }  // 1970-01-01 was a Thursday

    /// Today's local day by the board's clock.
    static func today(_ zone: LocalZone) -> Int {
        let now = Date().timeIntervalSince1970
        return Int((Double(Int(now) + zone.offset(at: now)) / 86_400).rounded(.down))
    }

    // MARK: calendar

    public static func calendar(
        path: String, date: String?, zone: LocalZone, json: Bool, console: Console
    ) throws(CLIError) -> Int32 {
        let runs = try runs(path, zone: zone, console: console)
        let parsed: (year: Int, month: Int, day: Int?)
        if let date {
            guard let value = parseDate(date) else {
                throw .usage("calendar takes a month (2026-10) or a day (2026-10-03), not \"\(date)\"")
            }
            parsed = value
        } else {
            let (year, month, _) = UTCTime.civilFromDays(today(zone))
            parsed = (year, month, nil)
        }
        if let day = parsed.day {
            return dayList(
                runs, day: epochDay(parsed.year, parsed.month, day), zone: zone, json: json, console: console)
        }
        let first = epochDay(parsed.year, parsed.month, 1)
        let count = daysIn(parsed.year, parsed.month)
        var byDay: [Int: [Run]] = [:]
        for run in runs where (first..<(first + count)).contains(run.day) {
            byDay[run.day, default: []].append(run)
        }
        let month = "\(UTCTime.pad(parsed.year, 4))-\(UTCTime.pad(parsed.month, 2))"
        if json {
            let days: [JSONValue] = byDay.keys.sorted().map { day in
                let list = byDay[day]!.sorted { $0.entry.startTime < $1.entry.startTime }
                return .object([
                    ("date", .string(Self.date(day))),
                    ("distance_m", .number(list.reduce(0) { $0 + $1.entry.distance }, places: 1)),
                    ("runs", .number(Double(list.count))),
                    ("flights", .array(list.map { .number(Double($0.entry.id)) })),
                ])
            }
            console.out(
                JSONValue.object([
                    ("month", .string(month)),
                    (
                        "distance_m",
                        .number(byDay.values.joined().reduce(0) { $0 + $1.entry.distance }, places: 1)
                    ),
                    ("runs", .number(Double(byDay.values.joined().count))),
                    ("days", .array(days)),
                ]).rendered())
            return 0
        }
        let shade = console.styled
        let largest = byDay.values.map { $0.reduce(0) { $0 + $1.entry.distance } }.max() ?? 0
        console.out(
            "  \(month)  (km a day; • one more run that day; local days: \(zone.label(at: Double(first) * 86_400)))"
        )
        let width = 11
        console.out(
            " "
                + ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map {
                    FlightReport.padRight(" " + $0, width)
                }.joined()
                + "  week")
        var line = String(repeating: " ", count: width * weekday(first))
        var week = 0.0
        for day in first..<(first + count) {
            let list = byDay[day] ?? []
            let km = list.reduce(0) { $0 + $1.entry.distance }
            week += km
            let number = UTCTime.pad(day - first + 1, 2)
            let value = km > 0 ? FlightReport.padRight(String(format: "%.1f", km / 1000), 4) : "    "
            let dots = String(repeating: "•", count: min(max(list.count - 1, 0), 4))
            var cell = FlightReport.padRight("\(number) \(value)\(dots)", width)
            if shade, km > 0 {
                // Four steps of green by the month's largest day.
                let level = [22, 28, 34, 40][min(3, Int(4 * km / max(largest, 1)))]
                cell = "\u{1B}[48;5;\(level)m\(cell.dropLast())\u{1B}[0m "
            }
            line += cell
            if weekday(day) == 6 || day == first + count - 1 {
                if weekday(day) != 6 { line += String(repeating: " ", count: width * (6 - weekday(day))) }
                line += week > 0 ? String(format: " %5.1f", week / 1000) : "      "
                console.out(" " + line)
                line = ""
                week = 0
            }
        }
        let total = byDay.values.joined().reduce(0) { $0 + $1.entry.distance }
        let runCount = byDay.values.joined().count
        console.out(
            "  \(String(format: "%.1f", total / 1000)) km in \(runCount) run\(runCount == 1 ? "" : "s")")
        return 0
    }

    /// One local day's flights (the seed: a day with more than one run opens its list).
    static func dayList(_ runs: [Run], day: Int, zone: LocalZone, json: Bool, console: Console) -> Int32 {
        let list = runs.filter { $0.day == day }.sorted { $0.entry.startTime < $1.entry.startTime }
        if json {
            console.out(
                JSONValue.object([
                    ("date", .string(Self.date(day))),
                    (
                        "flights",
                        .array(
                            list.map {
                                .object([
                                    ("id", .number(Double($0.entry.id))),
                                    ("start_time", .string(UTCTime.format($0.entry.startTime))),
                                    ("utc_offset_s", .number(Double(zone.offset(at: $0.entry.startTime)))),
                                    ("distance_m", .number($0.entry.distance, places: 1)),
                                    ("moving_s", .number($0.entry.movingTime, places: 1)),
                                ])
                            })
                    ),
                ]).rendered())
            return 0
        }
        guard !list.isEmpty else {
            console.out("No runs on \(Self.date(day)).")
            return 0
        }
        console.out(
            "\(Self.date(day)) (\(zone.label(at: list[0].entry.startTime))): \(list.count) run\(list.count == 1 ? "" : "s")"
        )
        for run in list {
            let pace = Pace.secondsPerKilometre(duration: run.entry.movingTime, distance: run.entry.distance)
            console.out(
                "  #\(FlightReport.padRight(String(run.entry.id), 5))\(run.clock)  "
                    + "\(FlightReport.padRight("\(FlightReport.km(run.entry.distance)) km", 10))"
                    + "\(FlightReport.padRight(UTCTime.duration(run.entry.movingTime), 9))\(Pace.format(pace)) /km"
            )
        }
        return 0
    }

    // MARK: week

    /// Distance per weekday, Monday to Sunday, as bars scaled to the week's largest day (so a
    /// 20 km day never overflows its frame).
    public static func week(path: String, date: String?, zone: LocalZone, json: Bool, console: Console)
        throws(CLIError) -> Int32
    {
        let runs = try runs(path, zone: zone, console: console)
        var day = today(zone)
        if let date {
            guard let parsed = parseDate(date), let d = parsed.day else {
                throw .usage("week takes a day (2026-10-03), not \"\(date)\"")
            }
            day = epochDay(parsed.year, parsed.month, d)
        }
        let monday = day - weekday(day)
        let totals = (0..<7).map { offset in
            runs.filter { $0.day == monday + offset }.reduce(0) { $0 + $1.entry.distance }
        }
        if json {
            console.out(
                JSONValue.object([
                    ("week_of", .string(Self.date(monday))),
                    (
                        "days",
                        .array(
                            totals.enumerated().map {
                                .object([
                                    ("date", .string(Self.date(monday + $0.offset))),
                                    ("distance_m", .number($0.element, places: 1)),
                                ])
                            })
                    ),
                    ("distance_m", .number(totals.reduce(0, +), places: 1)),
                ]).rendered())
            return 0
        }
        let largest = totals.max() ?? 0
        let width = 30
        console.out(
            "  week of \(Self.date(monday))  \(String(format: "%.1f", totals.reduce(0, +) / 1000)) km")
        for (offset, name) in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].enumerated() {
            let km = totals[offset]
            let bar = largest > 0 ? Int((Double(width) * km / largest).rounded()) : 0
            let text = km > 0 ? String(format: " %.1f km", km / 1000) : ""
            console.out(
                "  \(name) " + String(repeating: "█", count: bar) + String(repeating: "·", count: width - bar)
                    + text)
        }
        return 0
    }

    // MARK: delete

    /// Deletes a flight after asking (or with `yes`); never one still in the air.
    public static func delete(
        path: String, id: Int64, yes: Bool, answer: () -> String?, console: Console
    ) throws(CLIError) -> Int32 {
        // No recovery here: a "flying" flight may be runwayd's, in the air right now.
        let logbook = try LogbookCommands.open(
            path, access: .readWrite, recovering: false, creating: false, console: console)
        let entry: LogbookEntry?
        do {
            entry = try logbook.entries(includingSuperseded: true).first { $0.id == id }
        } catch {
            throw CLIError.logbook(path, error)
        }
        guard let entry else { throw CLIError("no flight \(id) in \(path)") }
        if entry.status == .flying {
            throw CLIError("flight \(id) is still in the air: END it first (runway stop), then delete it")
        }
        let what = "flight #\(id) (\(UTCTime.format(entry.startTime)), \(FlightReport.km(entry.distance)) km)"
        if !yes {
            console.out("Delete \(what) and everything recorded for it? [y/N]")
            guard let reply = answer() else {
                throw CLIError(
                    "not deleted: no answer (standard input closed); add --yes to delete without asking")
            }
            guard ["y", "yes"].contains(reply.trimmingCharacters(in: .whitespaces).lowercased()) else {
                console.out("Not deleted.")
                return 1
            }
        }
        do {
            try logbook.delete(flight: id)
        } catch {
            throw CLIError.logbook(path, error)
        }
        console.out("Deleted \(what).")
        return 0
    }
}
