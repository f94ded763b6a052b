import Foundation
import RunWayCore
import RunWaySimulator
import RunWayStore

// MARK: - Memory of a long flight through the engine and the recorder (issue 29)

/// `runway-bench memory [--hours H] [--rate HZ]`: the endurance scenario streamed through the
/// engine with the recorder and a logbook on this thread (the daemon's path without its threads,
/// faster than real time), RSS and the process's own memory every hour of flight time. Run under
/// heaptrack or massif to see which allocations grow.
struct MemoryBench {
    var hours = 6.0
    var rate = 10.0
    /// `--land 0` exits at the scenario's end still flying: what a heap profiler then finds
    /// allocated is what the flight held in the air, not the landing's work.
    var lands = true

    init?(arguments: [String]) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst().flatMap(Double.init) else { return nil }
            switch flag {
            case "--hours": hours = value
            case "--rate": rate = value
            case "--land": lands = value != 0
            default: return nil
            }
        }
    }

    func run() {
        print(
            "== Memory: a \(format(hours, 0)) h \(format(rate, 0)) Hz flight through the engine and the recorder =="
        )
        let directory = FileManager.default.currentDirectoryPath + "/.build/bench-memory"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/memory-\(getpid()).sqlite"
        defer {
            for suffix in ["", "-journal", "-rawlog"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
        guard let logbook = try? Logbook(path: path) else { return print("  no logbook at \(path)") }
        _ = logbook.prepareJournal()
        let engine = FlightEngine.replaying(FlightComputer(), observers: [FlightRecorder(logbook: logbook)])
        var scenario = Scenario.endurance(hours: hours, rate: rate)
        scenario.barometer.rate = 2
        var runner = ScenarioRunner(scenario)
        runner.recordsDistance = false
        runner.speedLogSeconds = 0
        var nextHour = 1.0
        var rotate: Double?
        let clock = ContinuousClock()
        let began = clock.now
        while let event = runner.next() {
            switch event {
            case .input(let simulated):
                let input = deliveredByTheBoard(simulated)
                let flying = engine.assumeIsolated { engine -> Double? in
                    engine.handle(input)
                    return engine.computer.rotateTime
                }
                rotate = rotate ?? flying
                if let rotate, input.time - rotate >= nextHour * 3600 {
                    let sample = ProcessSample(pid: getpid())
                    let retained = engine.assumeIsolated { $0.computer.retained }
                    print(
                        "  \(format(nextHour, 0)) h: RSS \(format(sample.rss, 1)) MiB, own \(format(sample.anonymous, 1)) MiB; "
                            + "engine retains \(retained.description) (\(format(seconds(clock.now - began), 0)) s)"
                    )
                    nextHour += 1
                }
            case .end(let sentAt):
                guard lands else { return }
                engine.assumeIsolated { engine in
                    _ = engine.end(sentAt: sentAt)
                    engine.close()
                }
                let landed = ProcessSample(pid: getpid())
                print(
                    "  landed and stored: RSS \(format(landed.rss, 1)) MiB, own \(format(landed.anonymous, 1)) MiB, "
                        + "peak RSS \(format(landed.peakRSS, 1)) MiB")
            }
        }
    }
}
