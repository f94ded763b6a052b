import Foundation
import RunWayCore
import RunWaySimulator
import RunWayStore

// MARK: - (e) Storage: what recording a flight writes to the SD card

/// Bytes this process has caused to be written to storage (/proc/self/io `write_bytes`).
func bytesWritten() -> Double {
    guard let io = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return .nan }
    for line in io.split(separator: "\n") where line.hasPrefix("write_bytes:") {
        return Double(line.split(separator: " ").last.map(String.init) ?? "") ?? .nan
    }
    return .nan
}

/// A simulated input with the precision the board's sources deliver (the simulator's doubles
/// carry 17 digits, which would overstate the raw log): gpsd's JSON prints latitude and
/// longitude to 9 decimals, altitude, speed and error estimates to 3, track to 4; the BMP280's
/// compensated pressure is Q24.8 (1/256 Pa).
func deliveredByTheBoard(_ input: EngineInput) -> EngineInput {
    func round(_ value: Double?, _ places: Double) -> Double? {
        value.map { ($0 * Foundation.pow(10, places)).rounded() / Foundation.pow(10, places) }
    }
    switch input {
    case .fix(var fix):
        fix.coordinate = Coordinate(
            latitude: round(fix.coordinate.latitude, 9)!, longitude: round(fix.coordinate.longitude, 9)!)
        fix.altitude = round(fix.altitude, 3)
        fix.speed = round(fix.speed, 3)
        fix.track = round(fix.track, 4)
        fix.horizontalAccuracy = round(fix.horizontalAccuracy, 3)
        return .fix(fix)
    case .pressure(var sample):
        sample.pascals = (sample.pascals * 256).rounded() / 256
        return .pressure(sample)
    default:
        return input
    }
}

/// What one recorded hour wrote, MiB (the kernel's `write_bytes`, not file sizes).
struct StorageFigures {
    var perHour = Double.nan
    var touchdown = Double.nan
    /// With `absorbFirst`: what moving the raw log from the journal into SQLite wrote.
    var absorb = Double.nan
    /// What the flight wrote before touchdown (the raw-log journal's commits), and their count.
    var inFlight = Double.nan
    var commits = Double.nan
    /// The raw log as the journal wrote it (its records, whole sectors), MiB: `inFlight` also
    /// holds the journal's take-ins into SQLite in flight (`Logbook.defaultJournalAbsorbAt`).
    var rawLog = Double.nan
}

/// Records a 1-hour flight at `gpsRate` into a fresh logbook and says what it wrote; `opening`
/// adds what opening a 100-hour logbook costs (slow: it stores the flight 100 times).
/// `absorbFirst` commits and absorbs the raw-log journal into SQLite just before END, so the
/// touchdown's bytes split into the raw log's move and the rest (a flow the daemon never takes).
func storageBudget(gpsRate: Double, opening: Bool = false, absorbFirst: Bool = false) -> StorageFigures {
    var figures = StorageFigures()
    print("")
    print(
        "== Storage: a 1-hour flight recorded as it flies (\(format(gpsRate, 0)) Hz GPS, 1 Hz heart rate, "
            + "2 Hz barometer) ==")
    let directory = FileManager.default.currentDirectoryPath + "/.build/bench-logbook"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/bench-\(getpid()).sqlite"
    defer {
        for suffix in ["", "-journal", "-rawlog"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
    do {
        let created = bytesWritten()
        let logbook = try Logbook(path: path)
        if let failure = logbook.prepareJournal() { print("  no raw-log journal: \(failure)") }
        let setup = bytesWritten() - created
        let engine = FlightEngine.replaying(FlightComputer(), observers: [FlightRecorder(logbook: logbook)])
        var scenario = Scenario.endurance(hours: 1, rate: gpsRate)
        scenario.barometer.rate = 2  // the board's BarometerSource reads every 0.5 s
        var runner = ScenarioRunner(scenario)
        runner.recordsDistance = false
        runner.speedLogSeconds = 0
        let before = bytesWritten()
        var commits = 0
        var flying = Double.nan
        while let event = runner.next() {
            switch event {
            case .input(let simulated):
                let input = deliveredByTheBoard(simulated)
                let committed = engine.assumeIsolated { engine -> Bool in
                    let pendingBefore = engine.recorder?.pending.count ?? 0
                    engine.handle(input)
                    return engine.isFlying && (engine.recorder?.pending.count ?? 0) <= pendingBefore
                }
                if committed { commits += 1 }
            case .end(let sentAt):
                flying = bytesWritten() - before
                if absorbFirst {
                    engine.assumeIsolated { engine in
                        guard let recorder = engine.recorder, let id = recorder.flightID else { return }
                        recorder.commit(until: engine.computer.now)
                        _ = try? recorder.logbook.rawInputSequence(flight: id)
                    }
                    figures.absorb = (bytesWritten() - before - flying) / 1_048_576
                }
                let stored = engine.assumeIsolated { engine -> Bool in
                    _ = engine.end(sentAt: sentAt)
                    engine.close()  // the recorder stores the landed flight at its next event
                    return engine.flightID == nil && engine.recorder?.landingDue == nil
                }
                if !stored { print("  the flight could not be stored") }
            }
        }
        let during = bytesWritten() - before
        figures.perHour = during / 1_048_576
        figures.touchdown = (during - flying) / 1_048_576
        (figures.inFlight, figures.commits) = (flying / 1_048_576, Double(commits))
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Double) ?? .nan
        // The logbook went to the engine with its recorder: read it there (on this thread).
        let (sizes, direct) = engine.assumeIsolated { engine in
            ((try? engine.recorder?.logbook.tableSizes()) ?? [:], engine.recorder?.logbook.journalIsDirect)
        }
        let tables = ["raw_log", "samples", "route_points", "routes", "splits"].map {
            "\($0) \(sizes[$0] ?? 0)"
        }
        let pages = engine.assumeIsolated { engine in engine.recorder?.logbook.pageBytes() ?? [:] }
        figures.rawLog = engine.assumeIsolated { engine in
            Double(engine.recorder?.logbook.journalRecordBytes ?? 0) / 1_048_576
        }
        print(
            "  \(commits) commits; written to storage while recording and landing: \(format(during / 1_048_576, 2)) MiB per hour "
                + "(\(format(flying / 1_048_576, 2)) MiB in flight, \(format((during - flying) / 1_048_576, 2)) MiB at touchdown)"
        )
        print(
            "  the raw log as the journal wrote it: \(format(figures.rawLog, 2)) MiB; in flight besides: its take-ins "
                + "into SQLite every \(Logbook.defaultJournalAbsorbAt / 1024) KiB of journal, "
                + "\(format(flying / 1_048_576 - figures.rawLog, 2)) MiB")
        print(
            "  logbook size for that hour: \(format(size / 1_048_576, 2)) MiB (\(tables.joined(separator: ", ")) rows)"
        )
        if !pages.isEmpty {
            // Where the logbook's bytes are (each page written once at touchdown into a fresh file).
            let named = pages.filter { $0.value > 4096 }.sorted { $0.value > $1.value }
                .map { "\($0.key) \(format(Double($0.value) / 1024, 0))" }
            print("  its pages, KiB by table and index: \(named.joined(separator: ", "))")
        }
        print(
            "  once per logbook, before any flight: \(format(setup / 1_048_576, 2)) MiB (the raw-log journal, "
                + "preallocated; commits \(direct == true ? "bypass" : "go through") the page cache)"
        )
        print("  target: ≤ 2 MB (1.91 MiB) written per hour of running")
        if opening {
            try engine.assumeIsolated { engine in
                guard let logbook = engine.recorder?.logbook else { return }
                try openingCost(path: path, logbook: logbook, hours: 100)
            }
        }
    } catch {
        print("  no figure: \(error)")
    }
    return figures
}

/// `runway-bench storage [--json]`: a recorded hour at 1 Hz and at 10 Hz; with `--json` the
/// figures go to standard output as one JSON object and the text to standard error.
func storageSection(json: Bool) {
    let output = json ? JSONOutput() : nil
    let (one, ten) = (storageBudget(gpsRate: 1), storageBudget(gpsRate: 10))
    print("")
    print("== Where the 10 Hz touchdown's bytes go: the same hour, its raw log absorbed just before END ==")
    let split = storageBudget(gpsRate: 10, absorbFirst: true)
    print(
        "  moving the raw log from the journal into SQLite: \(format(split.absorb, 2)) MiB; the rest of the "
            + "touchdown (smoothed flight's rows): \(format(split.touchdown - split.absorb, 2)) MiB")
    print(
        "  the 10 Hz touchdown against the flight's raw log as the journal wrote it: \(format(ten.touchdown, 2)) "
            + "vs \(format(ten.rawLog, 2)) MiB (goal: no larger)")
    let wear = wearFigures(running: ten, one: one, idle: idleWrites())
    output?.write(
        storageFields(one: one, ten: ten)
            + [
                ("touchdown_absorb_mib_10hz", split.absorb),
                ("touchdown_rest_mib_10hz", split.touchdown - split.absorb),
                ("inflight_write_mib_10hz", ten.inFlight), ("rawlog_journal_mib_10hz", ten.rawLog),
                ("rawlog_journal_mib_1hz", one.rawLog),
            ] + wear)
}

func storageFields(one: StorageFigures, ten: StorageFigures) -> [(String, Double)] {
    [
        ("storage_mib_per_hour_1hz", one.perHour), ("touchdown_write_mib_1hz", one.touchdown),
        ("storage_mib_per_hour_10hz", ten.perHour), ("touchdown_write_mib_10hz", ten.touchdown),
    ]
}

/// Standard output kept for one JSON object while everything printed goes to standard error.
final class JSONOutput {
    private let descriptor: Int32

    init() {
        descriptor = dup(1)
        dup2(2, 1)
    }

    /// `fields` (and `lists`: arrays of numbers) as one JSON object on one line; NaN is null.
    func write(_ fields: [(String, Double)], lists: [(String, [Double])] = []) {
        func number(_ value: Double) -> String { value.isFinite ? format(value, 3) : "null" }
        let members =
            fields.map { "\"\($0.0)\": \(number($0.1))" }
            + lists.map { "\"\($0.0)\": [\($0.1.map(number).joined(separator: ", "))]" }
        let text = "{" + members.joined(separator: ", ") + "}\n"
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(descriptor, $0.baseAddress, $0.count - 1) }
    }
}

/// What opening costs as the logbook grows: `Logbook(path:)` runs `quick_check`, which reads
/// every page. The 1-hour flight is copied to make `hours` of runs; the file is dropped from the
/// page cache first, so the cold figure includes reading it from storage.
func openingCost(path: String, logbook: Logbook, hours: Int) throws {
    // Each reprocess stores one more copy of the flight: its raw log and all its derived rows.
    for _ in 1..<hours { try logbook.reprocess(flight: 1) }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Double) ?? .nan
    let descriptor = open(path, O_RDONLY)
    if descriptor >= 0 {
        _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
        close(descriptor)
    }
    let clock = ContinuousClock()
    let cold = try clock.measure { _ = try Logbook(path: path) }
    let warm = try clock.measure { _ = try Logbook(path: path) }
    print(
        "  opening a logbook of \(hours) h of runs (\(format(size / 1_048_576, 0)) MiB): \(format(seconds(cold), 2)) s "
            + "from storage, \(format(seconds(warm), 2)) s cached (quick_check reads every page; an SD card reads ~20–40 MB/s)"
    )
}
