import Foundation
import RunWayCore
import RunWaySimulator

// MARK: - (f) Memory of `runway fly` on long files: it must not grow with the file.

/// Writes a long gpsd JSON trace and pressure CSV from the simulator, flies them with the
/// `runway` executable beside this one, and reports the child's peak RSS (wait4's ru_maxrss).
func traceMemory(lines: Int = 1_000_000, pressureRows: Int = 2_000_000) {
    print("== Memory of runway fly on long files (the board has 512 MB–1 GB) ==")
    let runway = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("runway").path
    guard FileManager.default.isExecutableFile(atPath: runway) else {
        print("  skipped: no runway executable beside runway-bench")
        return
    }
    let directory = NSTemporaryDirectory() + "runway-bench-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let gps = directory + "/long.gpsd.json"
    let pressure = directory + "/long.pressure.csv"
    // 10 Hz GPS and 20 Hz pressure over the same ~28 hours.
    let hours = Double(lines) / 10 / 3600
    var scenario = Scenario.endurance(hours: hours, rate: 10)
    scenario.barometer.rate = 20
    var runner = ScenarioRunner(scenario)
    runner.recordsDistance = false
    guard let gpsOut = FileHandle(forWritingAtPath: gps) ?? create(gps),
        let pressureOut = FileHandle(forWritingAtPath: pressure) ?? create(pressure)
    else {
        print("  skipped: cannot write in \(directory)")
        return
    }
    var (fixes, rows) = (0, 0)
    var gpsBuffer = ""
    var pressureBuffer = "time,pressure_pa\n"
    while fixes < lines || rows < pressureRows, let event = runner.next() {
        switch event {
        case .input(.fix(let fix)) where fixes < lines:
            gpsBuffer +=
                #"{"class":"TPV","device":"/dev/ttyS0","mode":3,"time":"\#(UTCTime.format(fix.time))","ept":0.005,"lat":\#(fix.coordinate.latitude),"lon":\#(fix.coordinate.longitude),"altMSL":\#(fix.altitude ?? 30),"eph":\#(fix.horizontalAccuracy ?? 20),"track":\#(fix.track ?? 0),"speed":\#(fix.speed ?? 0)}"#
                + "\n"
            fixes += 1
        case .input(.pressure(let sample)) where rows < pressureRows:
            pressureBuffer += "\(UTCTime.format(sample.time)),\(format(sample.pascals, 2))\n"
            rows += 1
        default: break
        }
        if gpsBuffer.utf8.count > 1 << 20 {
            gpsOut.write(Data(gpsBuffer.utf8))
            gpsBuffer = ""
        }
        if pressureBuffer.utf8.count > 1 << 20 {
            pressureOut.write(Data(pressureBuffer.utf8))
            pressureBuffer = ""
        }
    }
    gpsOut.write(Data(gpsBuffer.utf8))
    pressureOut.write(Data(pressureBuffer.utf8))
    try? gpsOut.close()
    try? pressureOut.close()
    let gpsSize = (try? FileManager.default.attributesOfItem(atPath: gps)[.size] as? Double) ?? .nan
    for (label, arguments) in [
        ("\(fixes) TPV lines (\(format(gpsSize / 1_000_000, 0)) MB)", ["fly", "--gps", gps]),
        ("the same with \(rows) pressure rows", ["fly", "--gps", gps, "--pressure", pressure]),
        ("the same piped through standard input", ["fly", "--gps", "-"]),
    ] {
        let clock = ContinuousClock()
        var peak = 0.0
        var status: Int32 = -1
        let elapsed = clock.measure {
            (status, peak) = runChild(runway, arguments, stdin: arguments.last == "-" ? gps : nil)
        }
        print(
            "  \(label): peak RSS \(format(peak, 1)) MiB (goal < 128 MiB), \(format(seconds(elapsed), 1)) s, exit \(status)"
        )
    }
}

private func create(_ path: String) -> FileHandle? {
    guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
    return FileHandle(forWritingAtPath: path)
}

/// Runs `path` with `arguments` (standard input from `stdin` when given, output discarded);
/// returns its exit status and peak RSS in MiB. posix_spawn and wait4 directly: Foundation's
/// Process reaps its children itself, and their rusage with them.
private func runChild(_ path: String, _ arguments: [String], stdin: String?) -> (Int32, Double) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return (-1, 0) }
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    return ((status >> 8) & 0xFF, Double(usage.ru_maxrss) / 1024)
}
