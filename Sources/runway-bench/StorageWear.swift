import Foundation

// MARK: - (e2) SD-card wear: what a day of use writes, and what a card's rated endurance makes of it

/// Bytes a process has caused to be written to storage (/proc/PID/io `write_bytes`).
func bytesWritten(pid: Int32) -> Double {
    guard let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return .nan }
    for line in io.split(separator: "\n") where line.hasPrefix("write_bytes:") {
        return Double(line.split(separator: " ").last.map(String.init) ?? "") ?? .nan
    }
    return .nan
}

/// What runwayd writes when it is not recording: once at power-up, and per idle day.
struct IdleWrites {
    /// MiB a power-up writes to a logbook that already exists (open, check, journal take-in).
    var perBoot = Double.nan
    /// MiB per 24 h in preflight (sensors live, no flight), scaled from `window` seconds.
    var perDay = Double.nan
    var window = 60.0
}

/// runwayd (the release build beside this bench) on the simulated board, never started: a
/// first launch makes the logbook and its journal (once per logbook), a second is the power-up
/// of every day after; its `write_bytes` over `window` seconds of preflight is the idle figure.
/// `write_bytes` counts whole 4 KiB pages, so one page in 60 s would read as 5.6 MiB a day:
/// a 0 is "less than that", said so.
func idleWrites(window: Double = 60) -> IdleWrites {
    var figures = IdleWrites(window: window)
    let directory = FileManager.default.currentDirectoryPath + "/.build/bench-wear"
    try? FileManager.default.removeItem(atPath: directory)
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try? "{}".write(toFile: directory + "/defaults.json", atomically: true, encoding: .utf8)
    let me: String =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
    let runwayd = (me as NSString).deletingLastPathComponent + "/runwayd"
    let socket = directory + "/idle.sock"
    func launch() -> Process? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: runwayd)
        process.arguments = [
            "--board", "simulated", "--scenario", "endurance-1h", "--speed", "1", "--socket", socket,
            "--logbook", directory + "/idle.sqlite", "--config", directory + "/defaults.json",
        ]
        (process.standardOutput, process.standardError) = (FileHandle.nullDevice, FileHandle.nullDevice)
        guard (try? process.run()) != nil else { return nil }
        for _ in 0..<250 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        sleep(5)  // past the logbook's opening and the first sensor readings
        return process
    }
    func stop(_ process: Process) {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
    guard let first = launch() else {
        print("  no idle figure: runwayd did not start (\(runwayd); `swift build -c release`)")
        return figures
    }
    stop(first)
    guard let daemon = launch() else { return figures }
    defer { stop(daemon) }
    let booted = bytesWritten(pid: daemon.processIdentifier)
    Thread.sleep(forTimeInterval: window)
    let idle = bytesWritten(pid: daemon.processIdentifier) - booted
    figures.perBoot = booted / 1_048_576
    figures.perDay = idle / window * 86_400 / 1_048_576
    return figures
}

/// A card's rated endurance, as assumptions (no card was measured here): a 32 GB TLC card
/// whose flash takes ~1 000 program/erase cycles (a common rating for consumer TLC; an
/// "endurance" card is rated higher, in hours of video), so ~32 TB of flash writes.
/// A card's controller programs whole flash pages; a small synchronous write costs at least
/// one page (16 KiB on current TLC), so the worst case counts each journal commit as 16 KiB of
/// flash however few bytes it holds (the commit count, not the bytes, wears the card then).
enum CardEndurance {
    static let capacity = 32e9
    static let cycles = 1_000.0
    static let flashPage = 16_384.0

    /// Years until `flashBytesPerDay` has written the card's rated endurance.
    static func years(flashBytesPerDay: Double) -> Double {
        capacity * cycles / flashBytesPerDay / 365
    }
}

/// What a day with a one-hour run at `rate` Hz writes, host bytes and worst-case flash bytes,
/// and the card's years at that: printed, and returned as JSON fields.
func wearFigures(running ten: StorageFigures, one: StorageFigures, idle: IdleWrites) -> [(String, Double)] {
    let mib = 1_048_576.0
    let idleDay =
        (idle.perDay.isFinite ? idle.perDay : 0) * 23 / 24 + (idle.perBoot.isFinite ? idle.perBoot : 0)
    let hostDay = ten.perHour + idleDay
    // Each commit programs at least a flash page; the journal's take-ins in flight, the touchdown
    // and idle writes are large or few.
    let flashDay =
        ten.commits * max(CardEndurance.flashPage, ten.rawLog * mib / max(ten.commits, 1))
        + (max(ten.inFlight - ten.rawLog, 0) + ten.touchdown + idleDay) * mib
    let hostYears = CardEndurance.years(flashBytesPerDay: hostDay * mib)
    let flashYears = CardEndurance.years(flashBytesPerDay: flashDay)
    print("")
    print("== SD-card wear: a day with a 1-hour run, the board idle the rest ==")
    print(
        "  per running hour: \(format(one.perHour, 2)) MiB at 1 Hz GPS, \(format(ten.perHour, 2)) MiB at 10 Hz "
            + "(\(Int(ten.commits)) journal commits of \(format(ten.rawLog * mib / max(ten.commits, 1) / 1024, 1)) KiB)"
    )
    print(
        "  idle: \(format(idle.perBoot * 1024, 0)) KiB per power-up, \(format(idle.perDay, 2)) MiB per idle day "
            + "(runwayd's write_bytes over \(Int(idle.window)) s of preflight; resolution 4 KiB → "
            + "\(format(4096 / idle.window * 86_400 / mib, 1)) MiB/day)")
    print(
        "  a day (1 h at 10 Hz + 23 h idle + 1 power-up): \(format(hostDay, 2)) MiB written, "
            + "≤ \(format(flashDay / mib, 1)) MiB of flash if every commit programs a whole 16 KiB page")
    print(
        "  a 32 GB card rated ~1 000 cycles (~32 TB): \(format(flashYears, 0)) years at the worst case, "
            + "\(format(hostYears, 0)) at the bytes written; a card of 100 cycles (cheap QLC) a tenth of that"
    )
    return [
        ("storage_mib_per_idle_day", idle.perDay), ("storage_mib_per_boot", idle.perBoot),
        ("storage_mib_per_day_10hz_1h", hostDay), ("flash_mib_per_day_10hz_1h_worst", flashDay / mib),
        ("card_endurance_years_10hz_worst", flashYears),
    ]
}
