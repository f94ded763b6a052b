import Foundation
import RunWayControl
import RunWayCore
import RunWaySimulator

// MARK: - (f2) runwayd's CPU through a real gpsd, and the battery life it implies (issue 29)

extension DaemonBench {
    /// What a running hour costs on the real board's path, measured here: gpsfake feeds a run's
    /// NMEA to a real gpsd at `rate` fixes a second, runwayd (`--board real`) reads it over libgps,
    /// the BMP280 is simulated at register level (`--simulate barometer`), the voice speaks each
    /// split to ALSA's `null` device through the configured engine, and the sensor service runs
    /// (no Bluetooth controller here: it says so and waits). A split every 200 m makes the voice
    /// speak in the two minutes (at 2.8 m/s, the 200 m split, and a run past 300 m is required),
    /// where a runner's kilometre splits speak once in six: an upper bound for it. The window is `seconds` of flight after START,
    /// scaled to an hour; CPU is runwayd's alone (user +
    /// system, every thread), not gpsd's or gpsfake's.
    func cpuThroughGPSD(rate: Int, seconds window: Double = 120) -> (cpu: Double, wakeUps: Double)? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake") else {
            print(
                "  CPU through gpsd at \(rate) Hz: skipped (gpsfake is not installed: apt-get install gpsd gpsd-clients)"
            )
            return nil
        }
        let nmea = directory + "/run-\(rate)hz.nmea"
        try? Self.nmea(minutes: window / 60 + 1.5, rate: rate).write(
            toFile: nmea, atomically: true, encoding: .utf8)
        let port = UInt16.random(in: 40_000...49_000)
        let fake = Process()
        fake.executableURL = URL(fileURLWithPath: "/usr/bin/gpsfake")
        // Three sentences an epoch (RMC, GGA, GSA): the cycle is a third of the fix interval.
        fake.arguments = ["-1", "-q", "-n", "-c", String(1 / (3 * Double(rate))), "-P", String(port), nmea]
        fake.standardOutput = FileHandle.nullDevice
        fake.standardError = FileHandle.nullDevice
        guard (try? fake.run()) != nil else {
            print("  CPU through gpsd at \(rate) Hz: skipped (gpsfake did not start)")
            return nil
        }
        defer { Self.stopFake(fake, port: port) }
        let config = directory + "/gpsd-\(rate)hz.json"
        try? """
        {"gpsd": "127.0.0.1:\(port)", "logbook": "\(directory)/gpsd-\(rate)hz.sqlite",
         "battery": {"power_supply": "\(directory)/none"}, "voice": {"output": "both", "device": "null"},
         "run": {"split_length_m": 200}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let socket = directory + "/gpsd-\(rate)hz.sock"
        guard
            let daemon = try? launch([
                "--board", "real", "--simulate", "barometer", "--socket", socket, "--config", config,
            ])
        else {
            print("  CPU through gpsd at \(rate) Hz: no figure (runwayd did not start)")
            return nil
        }
        defer { stop(daemon) }
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        start(socket)  // once runwayd has GPS time from gpsd
        sleep(5)  // past the countdown
        let first = ProcessSample(pid: daemon.processIdentifier)
        let wakeUps = Self.contextSwitches(pid: daemon.processIdentifier, over: window)
        let last = ProcessSample(pid: daemon.processIdentifier)
        let phase = status(socket)?.text(.phase) ?? "?"
        let distance = status(socket)?.number(.distance) ?? 0
        guard phase.lowercased() != "preflight", distance >= 300 else {
            print(
                "  CPU through gpsd at \(rate) Hz: no figure (runwayd did not fly: \(phase), \(format(distance, 0)) m)"
            )
            return nil
        }
        let cpu = (last.cpu - first.cpu) / window * 3600
        print(
            "  a \(rate) Hz run through gpsd (gpsfake → gpsd → libgps; barometer, voice to ALSA null, "
                + "sensor service; \(phase), \(format(distance / 1000, 2)) km): \(format(cpu, 1)) CPU s per hour, "
                + "\(format(wakeUps / window, 1)) wake-ups/s, RSS \(format(last.rss, 1)) MiB")
        return (cpu, wakeUps / window)
    }

    /// The NMEA of `minutes` of a steady run at `rate` fixes a second, for gpsfake.
    static func nmea(minutes: Double, rate: Int) -> String {
        var scenario = Scenario.endurance(hours: minutes / 60, rate: Double(rate))
        scenario.preflightSeconds = 0
        var runner = ScenarioRunner(scenario)
        runner.recordsDistance = false
        runner.speedLogSeconds = 0
        var text = ""
        while let event = runner.next() {
            if case .input(.fix(let fix)) = event {
                text += NMEAWriter.sentences(for: fix).joined(separator: "\r\n") + "\r\n"
            }
        }
        return text
    }

    /// gpsfake, and the gpsd it started (which outlives a killed gpsfake).
    static func stopFake(_ fake: Process, port: UInt16) {
        kill(fake.processIdentifier, SIGKILL)
        fake.waitUntilExit()
        let pkill = Process()
        pkill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
        pkill.arguments = ["-KILL", "-f", "gpsd .*-S \(port)"]
        try? pkill.run()
        pkill.waitUntilExit()
    }
}

/// The battery life a measured CPU time and wake-up rate imply, with every assumption named
/// (`board/README.md`'s bill of materials; none of it measured on a board here).
struct BatteryEstimate {
    /// A 2000 mAh 3.7 V LiPo through an 85 % boost to 5 V: 1258 mAh at 5 V.
    var cellMilliampHours = 2000.0
    var cellVolts = 3.7
    var boostEfficiency = 0.85
    /// Raspberry Pi Zero 2 W, Wi-Fi and HDMI off, idle at 5 V (vendor and community figures).
    var boardIdleMilliamps = 60.0
    /// One Cortex-A53 core busy at 1 GHz, above idle, at 5 V (~100 mA a core: four cores under
    /// a stress test draw ~400–500 mA on a Zero 2 W in published measurements).
    var busyCoreMilliamps = 100.0
    /// Each wake-up beyond the CPU time it is counted in: leaving WFI, caches refilled.
    var wakeUpCostSeconds = 100e-6
    /// The GPS module tracking (MT3339 class), through the 3.3 V regulator.
    var gpsMilliamps = 25.0
    /// The buzzer (25 mA while sounding, ~1 % of a run) and an I2S amplifier idling (2.4 mA).
    var annunciationMilliamps = 0.25 + 2.4

    /// Hours of running from a full cell, for `cpu` CPU seconds per hour and `wakeUps` a second.
    func hours(cpuSecondsPerHour cpu: Double, wakeUpsPerSecond wakeUps: Double) -> Double {
        let busy = min(1, cpu / 3600 + wakeUps * wakeUpCostSeconds)
        let milliamps =
            boardIdleMilliamps + busy * busyCoreMilliamps + gpsMilliamps + annunciationMilliamps
        let available = cellMilliampHours * cellVolts / 5 * boostEfficiency
        return available / milliamps
    }

    /// The sentence the bench prints: the figure and what it assumes.
    func said(cpuSecondsPerHour cpu: Double, wakeUpsPerSecond wakeUps: Double, rate: Int) -> String {
        let hours = hours(cpuSecondsPerHour: cpu, wakeUpsPerSecond: wakeUps)
        return
            "  battery estimate at \(rate) Hz: \(format(hours, 1)) h of running from a \(format(cellMilliampHours, 0)) mAh "
            + "cell (\(format(boostEfficiency * 100, 0)) % boost; board idle \(format(boardIdleMilliamps, 0)) mA + "
            + "\(format(busyCoreMilliamps, 0)) mA a busy core × the measured CPU share and \(format(wakeUpCostSeconds * 1e6, 0)) µs "
            + "a wake-up + GPS \(format(gpsMilliamps, 0)) mA + buzzer and amplifier \(format(annunciationMilliamps, 1)) mA, at 5 V)"
    }
}
