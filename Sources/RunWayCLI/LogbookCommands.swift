import RunWayCore
import RunWayStore

/// `runway logbook` and `runway reprocess`.
public enum LogbookCommands {
    static func open(_ path: String) throws(CLIError) -> Logbook {
        do {
            let logbook = try Logbook(path: path)
            try logbook.recoverInterruptedFlights()
            return logbook
        } catch {
            throw CLIError("logbook \(path): \(error)")
        }
    }

    /// Most recent first, each with its date and time of day (two runs on one day).
    public static func list(path: String, utcOffset: Int, json: Bool, console: Console) throws(CLIError)
        -> Int32
    {
        let logbook = try open(path)
        let entries: [LogbookEntry]
        do {
            entries = try logbook.entries()
        } catch {
            throw CLIError("logbook \(path): \(error)")
        }
        if entries.isEmpty && !json { console.out("The logbook is empty.") }
        for entry in entries {
            let (date, time) = UTCTime.components(Int(entry.startTime) + utcOffset)
            let pace = Pace.secondsPerKilometre(duration: entry.movingTime, distance: entry.distance)
            if json {
                console.out(
                    JSONValue.object([
                        ("id", .number(Double(entry.id))), ("status", .string(entry.status.rawValue)),
                        ("start_time", .string(UTCTime.format(entry.startTime))),
                        ("distance_m", .number(entry.distance, places: 1)),
                        ("elapsed_s", .number(entry.elapsed, places: 1)),
                        ("moving_s", .number(entry.movingTime, places: 1)),
                        ("avg_pace_s_per_km", .number(pace, places: 1)),
                    ]).rendered())
            } else {
                console.out(
                    "\(FlightReport.padRight("#\(entry.id)", 6))\(date) \(time.prefix(5))  "
                        + "\(FlightReport.padRight("\(FlightReport.km(entry.distance)) km", 10))"
                        + "\(FlightReport.padRight(UTCTime.duration(entry.movingTime), 9))"
                        + "\(FlightReport.padRight("\(Pace.format(pace)) /km", 11))\(entry.status.rawValue)")
            }
        }
        return 0
    }

    public static func reprocess(path: String, id: Int64, replace: Bool, console: Console) throws(CLIError)
        -> Int32
    {
        let logbook = try open(path)
        do {
            guard let written = try logbook.reprocess(flight: id, replace: replace) else {
                throw CLIError("logbook \(path) has no flight \(id)")
            }
            console.out(
                replace
                    ? "Flight \(id) flown again from its raw sensor log and replaced."
                    : "Flight \(id) flown again from its raw sensor log and stored as flight \(written); the original is kept."
            )
            return 0
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("logbook \(path): \(error)")
        }
    }
}
