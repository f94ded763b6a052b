import Foundation
import RunWayControl

// MARK: - (f) runwayd as a process: start → READY, idle wake-ups, CPU per hour, memory over 24 h

/// What /proc says of a process.
struct ProcessSample {
    /// CPU seconds, user + system, all threads.
    var cpu: Double
    var rss: Double
    var peakRSS: Double
    /// Anonymous memory (the process's own, not shared libraries' pages), MiB.
    var anonymous: Double

    init(pid: Int32) {
        func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        func field(_ text: String, _ name: String) -> Double {
            for line in text.split(separator: "\n") where line.hasPrefix(name) {
                return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }.first
                    ?? 0
            }
            return 0
        }
        // /proc/PID/stat: fields 14 and 15 (utime, stime) after the parenthesised name.
        let stat = read("/proc/\(pid)/stat")
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        cpu = fields.count > 12 ? ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks : 0
        let status = read("/proc/\(pid)/status")
        rss = field(status, "VmRSS:") / 1024
        peakRSS = field(status, "VmHWM:") / 1024
        anonymous = field(read("/proc/\(pid)/smaps_rollup"), "Anonymous:") / 1024
    }
}

/// A datagram socket standing in for systemd's notify socket.
final class BenchNotifySocket {
    let path: String
    let fd: Int32

    init(path: String) {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
        unlink(path)
    }

    func next() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer.prefix(n), as: UTF8.self) : nil
    }
}

struct DaemonBench {
    /// `--json`: the figures as one JSON object on standard output, the text on standard error.
    var json = false
    let directory = FileManager.default.currentDirectoryPath + "/.build/bench-daemon"
    let runwayd: String = {
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine
            .arguments[0]
        return (me as NSString).deletingLastPathComponent + "/runwayd"
    }()

    func launch(_ arguments: [String], notify: String? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: runwayd)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify
        environment["JOURNAL_STREAM"] = nil
        process.environment = environment
        process.standardError =
            FileHandle(forWritingAtPath: directory + "/runwayd.log") ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    func stop(_ process: Process) {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    func status(_ socket: String) -> ControlStatus? {
        guard case .ok(let reply)? = try? ControlClient(path: socket).request(.status) else { return nil }
        return reply.status
    }

    func start(_ socket: String) {
        // The simulated board has GPS time once its first fix is flown.
        for _ in 0..<200 {
            if case .ok? = try? ControlClient(path: socket).request(.start(mission: nil)) { return }
            usleep(50_000)
        }
    }

    func run() {
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory + "/runwayd.log", contents: nil)
        // The defaults, not the machine's /etc/runway/runway.json (a named --config must exist).
        try? "{}".write(toFile: directory + "/defaults.json", atomically: true, encoding: .utf8)
        print("")
        let output = json ? JSONOutput() : nil
        print("== runwayd as a process (release build; \(runwayd)) ==")
        idle()
        let cpu = cpuPerHour()
        let throughGPSD = [1, 10].map { cpuThroughGPSD(rate: $0) }
        let battery = BatteryEstimate()
        for (rate, measured) in zip([1, 10], throughGPSD) {
            guard let measured else { continue }
            print(
                battery.said(cpuSecondsPerHour: measured.cpu, wakeUpsPerSecond: measured.wakeUps, rate: rate))
        }
        let day = memoryOverADay()
        guard let output else { return }
        var gpsdFields: [(String, Double)] = []
        for (rate, measured) in zip([1, 10], throughGPSD) {
            gpsdFields += [
                ("cpu_s_per_hour_gpsd_\(rate)hz", measured?.cpu ?? .nan),
                ("wakeups_per_s_gpsd_\(rate)hz", measured?.wakeUps ?? .nan),
                (
                    "battery_hours_\(rate)hz",
                    measured.map { battery.hours(cpuSecondsPerHour: $0.cpu, wakeUpsPerSecond: $0.wakeUps) }
                        ?? .nan
                ),
            ]
        }
        let (one, ten) = (storageBudget(gpsRate: 1), storageBudget(gpsRate: 10))
        let growth = (day.own.last ?? .nan) - (day.own.first ?? .nan)
        output.write(
            [("cpu_s_per_hour_1hz", cpu), ("daemon_rss_mib_24h", day.rss.count >= 24 ? day.rss[23] : .nan)]
                + [("daemon_own_memory_growth_mib", day.own.count >= 24 ? growth : .nan)] + gpsdFields
                + storageFields(one: one, ten: ten),
            lists: [("daemon_rss_mib_by_hour", day.rss), ("daemon_own_mib_by_hour", day.own)])
    }

    /// The real board's services waiting for a first fix: gpsd running with no receiver, the
    /// barometer on its register-level simulation.
    func idle() {
        let port = UInt16.random(in: 40_000...49_000)
        let gpsd = Process()
        gpsd.executableURL = URL(fileURLWithPath: "/usr/sbin/gpsd")
        gpsd.arguments = ["-N", "-S", String(port)]
        gpsd.standardError = FileHandle.nullDevice
        try? gpsd.run()
        defer {
            kill(gpsd.processIdentifier, SIGKILL)
            gpsd.waitUntilExit()
        }
        usleep(300_000)
        let config = directory + "/idle.json"
        try?
            #"{"gpsd": "127.0.0.1:\#(port)", "logbook": "\#(directory)/idle.sqlite", "battery": {"power_supply": "\#(directory)/none"}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let notify = BenchNotifySocket(path: directory + "/notify")
        let clock = ContinuousClock()
        let began = clock.now
        guard
            let daemon = try? launch(
                [
                    "--board", "real", "--simulate", "barometer", "--socket", directory + "/idle.sock",
                    "--config", config,
                ],
                notify: notify.path)
        else { return print("  no figure: runwayd did not start (\(runwayd))") }
        defer { stop(daemon) }
        var ready: Duration?
        while let message = notify.next() {
            if message.contains("READY=1") {
                ready = clock.now - began
                break
            }
        }
        guard let ready else { return print("  no READY=1 within 20 s") }
        print(
            "  start → READY=1: \(format(seconds(ready) * 1000, 0)) ms (logbook opened, control socket listening)"
        )
        sleep(5)
        let first = ProcessSample(pid: daemon.processIdentifier)
        let window = 60.0
        let wakeUps = Self.contextSwitches(pid: daemon.processIdentifier, over: window)
        let last = ProcessSample(pid: daemon.processIdentifier)
        print(
            "  idle in preflight, gpsd up, no fix: \(format(wakeUps / window, 2)) wake-ups/s "
                + "(context switches of all threads over \(Int(window)) s; goal ≤ 2), "
                + "CPU \(format((last.cpu - first.cpu) / window * 3600, 1)) s per hour")
        print(
            "  memory idle: RSS \(format(last.rss, 1)) MiB, of which the process's own (anonymous) "
                + "\(format(last.anonymous, 1)) MiB; the rest is code and data paged in from files (runwayd's own, "
                + "with the Swift runtime and Foundation when linked statically, and the C libraries)"
        )
    }

    /// Context switches of all the process's threads over `seconds`, sampled every 0.2 s per
    /// thread: a thread that ends (libdispatch reaps idle workers, the sleeper's thread ends when
    /// nothing is pending) keeps the switches it had, and a new one counts from zero.
    static func contextSwitches(pid: Int32, over seconds: Double) -> Double {
        func perThread() -> [String: Double] {
            var counts: [String: Double] = [:]
            for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
                let status =
                    (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
                counts[task] = status.split(separator: "\n").filter { $0.contains("ctxt_switches:") }
                    .compactMap {
                        $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).last.flatMap { Double($0) }
                    }
                    .reduce(0, +)
            }
            return counts
        }
        let start = perThread()
        var latest = start
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            Thread.sleep(forTimeInterval: 0.2)
            for (task, count) in perThread() { latest[task] = max(latest[task] ?? 0, count) }
        }
        return latest.reduce(0) { $0 + $1.value - (start[$1.key] ?? 0) }
    }

    /// A 1 Hz run in real time on the simulated board, a minute of it, scaled to an hour. The
    /// simulator makes the scenario's sensors as it goes, so this is an upper bound for the board.
    @discardableResult
    func cpuPerHour() -> Double {
        let socket = directory + "/run.sock"
        guard
            let daemon = try? launch([
                "--board", "simulated", "--scenario", "endurance-1h", "--speed", "1", "--socket", socket,
                "--logbook", directory + "/run.sqlite", "--config", directory + "/defaults.json",
            ])
        else { return .nan }
        defer { stop(daemon) }
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        start(socket)
        sleep(5)  // past the countdown
        let first = ProcessSample(pid: daemon.processIdentifier)
        let window = 60.0
        let wakeUps = Self.contextSwitches(pid: daemon.processIdentifier, over: window)
        let last = ProcessSample(pid: daemon.processIdentifier)
        let phase = status(socket)?.text(.phase) ?? "?"
        print(
            "  a 1 Hz run in real time (GPS 1 Hz, barometer 2 Hz, recording; \(phase)): "
                + "\(format((last.cpu - first.cpu) / window * 3600, 1)) CPU s per hour, "
                + "\(format(wakeUps / window, 1)) wake-ups/s (simulator included: an upper bound)"
        )
        return (last.cpu - first.cpu) / window * 3600
    }

    /// A 24-hour run at 10 Hz, flown as fast as the daemon takes it, then landed and stored.
    /// Returns RSS and the process's own memory (MiB) at each hour of flight time, 1 h to 24 h.
    @discardableResult
    func memoryOverADay() -> (rss: [Double], own: [Double]) {
        let socket = directory + "/day.sock"
        guard
            let daemon = try? launch([
                "--board", "simulated", "--scenario", "endurance-24h-10hz", "--speed", "max", "--socket",
                socket,
                "--logbook", directory + "/day.sqlite", "--config", directory + "/defaults.json",
            ])
        else { return ([], []) }
        defer { stop(daemon) }
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        // The board's runwayd links the Swift runtime statically (the .deb, `make bench-daemon`);
        // linked against the toolchain's shared runtime it maps a dozen more libraries.
        let maps =
            (try? String(contentsOfFile: "/proc/\(daemon.processIdentifier)/maps", encoding: .utf8)) ?? ""
        if maps.contains("libswiftCore.so") {
            print(
                "  (this runwayd links the Swift runtime shared, ~4.5 MiB more RSS than the .deb's: "
                    + "`make bench-daemon` measures one built as the .deb is, --static-swift-stdlib)")
        }
        start(socket)
        let clock = ContinuousClock()
        let began = clock.now
        var rows: [(hours: Double, sample: ProcessSample)] = []
        var lastElapsed = -1.0
        var unchanged = 0
        // Every 0.2 s: the daemon flies the day in ~75 s, an hour in ~3 s, and the scenario lands
        // just short of 24 h of flight time (a 1 s poll missed the last hour).
        while unchanged < 15, clock.now - began < .seconds(900) {
            usleep(200_000)
            let elapsed = status(socket)?.number(.elapsed) ?? 0
            rows.append((elapsed / 3600, ProcessSample(pid: daemon.processIdentifier)))
            unchanged = elapsed == lastElapsed ? unchanged + 1 : 0
            lastElapsed = elapsed
            if elapsed >= 24 * 3600 { break }
        }
        let flown = seconds(clock.now - began)
        let reply = try? ControlClient(path: socket, timeout: 120).request(.stop(sentAt: nil))
        let landed = ProcessSample(pid: daemon.processIdentifier)
        // An hour's figure is the first sample within 0.1 h of it (the day ends at 23.9+ h).
        func at(_ hours: Double) -> ProcessSample? { rows.first { $0.hours >= hours - 0.1 }?.sample }
        let hourly = (1...24).compactMap { at(Double($0)) }
        let marks = hourly.enumerated().map {
            "\($0 + 1) h \(format($1.rss, 1)) (own \(format($1.anonymous, 1)))"
        }
        print(
            "  a 24-hour 10 Hz run (\(format(rows.map(\.hours).max() ?? 0, 1)) h flown in \(format(flown, 0)) s, then landed: "
                + "\(reply.flatMap(Self.result) ?? "no reply")); RSS MiB by flight time: \(marks.joined(separator: ", "))"
        )
        print(
            "  peak RSS \(format(landed.peakRSS, 1)) MiB (landing included); the process's own memory at the end "
                + "\(format(landed.anonymous, 1)) MiB; goal ≤ 28 MiB at 24 h, own memory growth ≤ 2 MiB")
        return (hourly.map(\.rss), hourly.map(\.anonymous))
    }

    /// What a command came to, or nil for a refusal.
    static func result(_ reply: ControlResponse) -> String? {
        guard case .ok(let outcome) = reply else { return nil }
        return outcome.result?.text
    }
}
