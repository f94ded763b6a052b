import Foundation
import RunWayCore
import RunWayExport
import RunWayStore

/// `runway logbook` and `runway reprocess`.
public enum LogbookCommands {
    /// Read-only commands open read-only: nothing is created, recovered or written, so a
    /// mistyped path is "no logbook" and a logbook on read-only storage still lists. Commands that
    /// write close the flights a power cut left open first.
    /// `recovering: false` leaves flights that are "flying" alone (one may be runwayd's, in the
    /// air right now). `creating: false` (a command that changes flights: reprocess, delete)
    /// never makes a logbook: a mistyped path is "no logbook" for it too. What opening had to do
    /// first (a write a kill cut short, rolled back) is said on standard error.
    static func open(
        _ path: String, access: Logbook.Access, recovering: Bool = true, creating: Bool = true,
        console: Console
    ) throws(CLIError) -> Logbook {
        do {
            let logbook = try Logbook(path: path, access: access, create: creating)
            if let note = logbook.openingNote { console.err("runway: \(note)") }
            for damage in logbook.journalDamage { console.err("runway: \(damage)") }
            if access == .readWrite && recovering && RecorderLock.isHeld(logbook: path) {
                // runwayd is recording into it: a flight "flying" may be in the air right now.
                console.err("runway: runwayd is recording into \(path): flights in the air are left to it")
            } else if access == .readWrite && recovering {
                for recovered in try logbook.recoverInterruptedFlights() {
                    console.err("runway: \(Self.describe(recovered))")
                }
            }
            return logbook
        } catch {
            throw CLIError.logbook(path, error)
        }
    }

    /// What recovery did with a flight a power cut left open, said once.
    static func describe(_ recovered: RecoveredFlight) -> String {
        guard recovered.kept else {
            return "flight \(recovered.id), left open by a power cut, flew \(Int(recovered.distance)) m: "
                + "under 100 m, it is not recorded and was removed"
        }
        return "flight \(recovered.id), left open by a power cut, was recovered from its raw sensor log "
            + "(\(FlightReport.km(recovered.distance)) km)\(gapNote(recovered.gaps))"
    }

    /// Each impossible stored value the reads met, and what it cost, once, on standard error.
    static func sayDamage(_ logbook: Logbook, console: Console) {
        for damage in logbook.damage { console.err("runway: \(damage)") }
    }

    /// Damage as `--json` gives it: one object each.
    static func json(_ damage: [RowDamage]) -> JSONValue {
        .array(
            damage.map {
                .object([
                    ("flight", $0.flight.map { .number(Double($0)) } ?? .null), ("row", .string($0.row)),
                    ("column", .string($0.column)), ("value", .string($0.value)),
                    ("rows", .number(Double($0.rows))), ("cost", .string("\($0.cost)")),
                    ("message", .string($0.description)),
                ])
            })
    }

    /// What damaged raw-log records cost a flight, or "" when nothing is missing.
    static func gapNote(_ gaps: [RawLogGap]) -> String {
        guard !gaps.isEmpty else { return "" }
        let seconds = gaps.reduce(0) { $0 + $1.seconds }
        let spans = gaps.prefix(3).map {
            "\(UTCTime.duration($0.fromElapsed))–\(UTCTime.duration($0.toElapsed))"
        }
        return "; \(Int(seconds.rounded())) s of its raw log were damaged on the card and are missing ("
            + spans.joined(separator: ", ") + (gaps.count > 3 ? ", …" : "")
            + "), flown across as a signal loss"
    }

    /// Most recent first, each with its date and time of day (two runs on one day).
    /// - Parameter all: also the flights a reprocessed one supersedes (they count once, as
    ///   their newest version, in the plain list and in totals).
    public static func list(path: String, zone: LocalZone, all: Bool = false, json: Bool, console: Console)
        throws(CLIError) -> Int32
    {
        let logbook = try open(path, access: .readOnly, console: console)
        let entries: [LogbookEntry]
        do {
            entries = try logbook.entries(includingSuperseded: all)
        } catch {
            throw CLIError.logbook(path, error)
        }
        defer { sayDamage(logbook, console: console) }
        if entries.isEmpty && !json { console.out("The logbook is empty.") }
        for entry in entries {
            let (date, time) = zone.components(entry.startTime)
            let offset = zone.offset(at: entry.startTime)
            let pace = Pace.secondsPerKilometre(duration: entry.movingTime, distance: entry.distance)
            if json {
                var fields: [(String, JSONValue)] = [
                    ("id", .number(Double(entry.id))), ("status", .string(entry.status.rawValue)),
                    ("start_time", .string(UTCTime.format(entry.startTime))),
                    ("utc_offset_s", .number(Double(offset))),
                    ("distance_m", .number(entry.distance, places: 1)),
                    ("elapsed_s", .number(entry.elapsed, places: 1)),
                    ("moving_s", .number(entry.movingTime, places: 1)),
                    ("avg_pace_s_per_km", .number(pace, places: 1)),
                    ("replaces", entry.replaces.map { .number(Double($0)) } ?? .null),
                    ("superseded_by", entry.supersededBy.map { .number(Double($0)) } ?? .null),
                ]
                if !entry.damage.isEmpty { fields.append(("damage", Self.json(entry.damage))) }
                console.out(JSONValue.object(fields).rendered())
            } else {
                console.out(
                    "\(FlightReport.padRight("#\(entry.id)", 6))\(date) \(time.prefix(5)) "
                        + "\(FlightReport.padRight(LocalZone.offsetLabel(offset), 9))"
                        + "\(FlightReport.padRight("\(FlightReport.km(entry.distance)) km", 10))"
                        + "\(FlightReport.padRight(UTCTime.duration(entry.movingTime), 9))"
                        + "\(FlightReport.padRight("\(Pace.format(pace)) /km", 11))\(entry.status.rawValue)"
                        + (entry.supersededBy.map { ", superseded by #\($0)" } ?? ""))
            }
        }
        return 0
    }

    /// One flight: its summary, splits and alerts for a runner; for scripts, the whole flight
    /// (the `runway fly --json` fields, plus its FDR samples and simplified route).
    public static func show(
        path: String, id: Int64, zone: LocalZone, bodyMass: Double?, json: Bool,
        units: DistanceUnit = .kilometre, homeAltitude: Double? = nil, console: Console
    ) throws(CLIError) -> Int32 {
        let logbook = try open(path, access: .readOnly, console: console)
        let logged = try answer(for: id, in: path) { () throws(StoreError) in try logbook.flight(id: id) }
        defer { sayDamage(logbook, console: console) }
        let flight = logged.flight
        if json {
            var fields: [(String, JSONValue)] =
                FlightReport.fields(flight, bodyMass: bodyMass) + [
                    ("id", .number(Double(logged.id))),
                    ("logbook_status", .string(logged.status.rawValue)),
                    ("source", .string(logged.source)),
                    ("replaces", logged.replaces.map { .number(Double($0)) } ?? .null),
                    ("engine_version", .number(Double(logged.engineVersion))),
                    ("utc_offset_s", .number(Double(zone.offset(at: flight.startTime)))),
                    (
                        "raw_log_gaps",
                        .array(
                            logged.rawLogGaps.map { gap in
                                .object([
                                    ("from_elapsed_s", .number(gap.fromElapsed, places: 1)),
                                    ("to_elapsed_s", .number(gap.toElapsed, places: 1)),
                                    ("records", .number(Double(gap.records))),
                                ])
                            })
                    ),
                    (
                        "fdr_samples",
                        .array(
                            flight.samples.map { s in
                                .object(
                                    [("elapsed_s", .number(s.elapsed, places: 1))] + FlightReport.readings(s)
                                        + [("paused", .bool(s.paused))])
                            })
                    ),
                    (
                        "route_simplified",
                        .array(
                            flight.simplifiedRoute.points.map { p in
                                .array([
                                    .number(p.elapsed, places: 1), .number(p.coordinate.latitude, places: 7),
                                    .number(p.coordinate.longitude, places: 7),
                                ])
                            })
                    ),
                ]
            if !logged.damage.isEmpty { fields.append(("damage", Self.json(logged.damage))) }
            fields.append(
                (
                    "altitude_anchor",
                    try altitudeAnchor(logged, logbook, path: path, homeAltitude: homeAltitude)
                ))
            console.out(JSONValue.object(fields).rendered())
            return 0
        }
        let replaces = logged.replaces.map { ", reprocessed from #\($0)" } ?? ""
        console.out(
            "Flight #\(logged.id)  \(zone.describe(flight.startTime))  "
                + "\(logged.status.rawValue), from \(logged.source)\(replaces)")
        if !logged.rawLogGaps.isEmpty { console.out("  Raw log incomplete\(gapNote(logged.rawLogGaps)).") }
        console.out(FlightReport.summary(flight, bodyMass: bodyMass, zone: zone, units: units))
        if bodyMass == nil {
            console.out("  (calories: give --body-mass KG)")
        }
        return 0
    }

    /// What the exported files' altitude above sea level is anchored to (issue 28), read from the
    /// raw log as the export does: `ExportActivity.anchorJSON`.
    static func altitudeAnchor(
        _ logged: LoggedFlight, _ logbook: Logbook, path: String, homeAltitude: Double?
    ) throws(CLIError) -> JSONValue {
        var options = ExportOptions()
        options.homeAltitude = homeAltitude
        do {
            return try Exporter.activity(of: logged, from: logbook, options: options).anchorJSON
        } catch {
            throw CLIError.logbook(path, error)
        }
    }

    /// Copies every flight that can still be read from a damaged logbook into a new one; the
    /// damaged file is only read.
    public static func salvage(from path: String, to target: String, console: Console) throws(CLIError)
        -> Int32
    {
        guard !FileManager.default.fileExists(atPath: target) else {
            throw CLIError("\(target) exists; salvage writes a new logbook and never writes over one")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError("no logbook at \(path)")
        }
        guard !isDirectory.boolValue else { throw CLIError("\(path) is a directory, not a logbook file") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw CLIError("\(path) cannot be read: permission denied")
        }
        // Written under a temporary name and moved into place when complete: a salvage that
        // is killed or saves nothing leaves nothing under `target`, and a retry starts again.
        let flights: [SalvagedFlight]
        let note: String?
        do {
            let line = ProgressLine("salvaging", console: console)
            defer { line.finish() }
            (flights, note) = try Logbook.salvage(from: path, into: target, progress: line.update)
        } catch {
            if case .sqlite = error, error.path != Logbook.partialPath(forSalvageInto: target) {
                throw CLIError("salvage of \(path): nothing could be read: \(error)")
            }
            throw CLIError("salvage of \(path): nothing was saved: \(error)")
        }
        for flight in flights {
            let when = flight.startTime.map { UTCTime.format($0) } ?? "?"
            let label = FlightReport.padRight(
                "#\(flight.originalID)" + (flight.newID.map { " → #\($0)" } ?? ""), 12)
            let distance = flight.distance.map { "\(FlightReport.km($0)) km  " } ?? ""
            let what: String
            switch flight.outcome {
            case .flownAgain(let batches, true):
                what = "flown again from its raw sensor log (\(batches) batches)"
            case .flownAgain(let batches, false):
                what =
                    "flown again from its raw sensor log up to the damage (\(batches) batches), stored as recovered"
            case .derivedOnly:
                what = "summary, splits, samples and route as stored (its raw sensor log is unreadable)"
            case .unreadable(let reason):
                what = "lost: \(reason)"
            }
            console.out("\(label)\(when)  \(distance)\(what)")
        }
        if let note { console.out("Note: \(note).") }
        let saved = flights.filter { $0.newID != nil }.count
        console.out(
            "Salvaged \(saved) of \(flights.count) flight\(flights.count == 1 ? "" : "s")"
                + (saved > 0 ? " into \(target)" : "; nothing was written") + "; \(path) was only read.")
        return saved > 0 ? 0 : 1
    }

    /// `configuration`: the engine the flight is flown again with (the installed configuration's
    /// zones, so time in zone comes out as runwayd counted it).
    public static func reprocess(
        path: String, id: Int64, replace: Bool, configuration: EngineConfiguration = EngineConfiguration(),
        console: Console
    ) throws(CLIError) -> Int32 {
        let logbook = try open(path, access: .readWrite, creating: false, console: console)
        let written = try answer(for: id, in: path) { () throws(StoreError) -> Int64?? in
            guard try logbook.flight(id: id) != nil else { return nil }
            let line = ProgressLine("flying flight \(id) again", console: console)
            defer { line.finish() }
            return .some(
                try logbook.reprocess(
                    flight: id, replace: replace, configuration: configuration, progress: line.update))
        }
        guard let written else {
            console.out("Flight \(id) flies under 100 m with this engine: not recorded, nothing was written.")
            return 0
        }
        console.out(
            replace
                ? "Flight \(id) flown again from its raw sensor log and replaced."
                : "Flight \(id) flown again from its raw sensor log and stored as flight \(written); the original is kept."
        )
        return 0
    }

    /// `runway trim`: the window checked against the stored flight first (a usage error naming
    /// the field, nothing written), then `Logbook.trim`.
    public static func trim(
        path: String, id: Int64, start: Double?, end: Double?, replace: Bool,
        configuration: EngineConfiguration = EngineConfiguration(), console: Console
    ) throws(CLIError) -> Int32 {
        let logbook = try open(path, access: .readWrite, creating: false, console: console)
        let stored = try answer(for: id, in: path) { () throws(StoreError) in try logbook.flight(id: id) }
        let window: ClosedRange<Double>
        do {
            window = try Logbook.trimWindow(
                start: start, end: end, elapsed: stored.flight.elapsed, flying: stored.status == .flying)
        } catch {
            throw .usage("flight \(id): \(error)")
        }
        let written: Int64?
        do {
            written = try logbook.trim(
                flight: id, window: window, replace: replace, configuration: configuration)
        } catch {
            throw CLIError.logbook(path, error)
        }
        let span = "\(UTCTime.duration(window.lowerBound))–\(UTCTime.duration(window.upperBound))"
        guard let written else {
            console.out("Flight \(id) cut to \(span) flies under 100 m: not recorded, nothing was written.")
            return 0
        }
        console.out(
            replace
                ? "Flight \(id) cut to \(span) of its raw sensor log and replaced."
                : "Flight \(id) cut to \(span) of its raw sensor log and stored as flight \(written); the original is kept."
        )
        return 0
    }

    /// What `body` gives for flight `id`: "no flight" when it gives nothing, a store failure said
    /// with the logbook's name.
    static func answer<T>(for id: Int64, in path: String, _ body: () throws(StoreError) -> T?)
        throws(CLIError)
        -> T
    {
        let found: T?
        do {
            found = try body()
        } catch {
            throw CLIError.logbook(path, error)
        }
        guard let found else { throw CLIError("logbook \(path) has no flight \(id)") }
        return found
    }
}
