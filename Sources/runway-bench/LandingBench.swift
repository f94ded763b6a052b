import Foundation
import RunWayCore
import RunWaySimulator
import RunWayStore

// MARK: - Issue 29: how long landing a long flight takes, and where

/// `runway-bench landing [--hours H] [--rate HZ]` (default 24 h at 10 Hz): the endurance flight
/// recorded as it flies (engine and recorder, the raw-log journal), then landed as runwayd lands
/// it (the touchdown commit, then the saved flight smoothed over the raw log read back from the
/// logbook and stored); then the store's parts timed one by one on the same flight: reading the
/// raw log back once, the smoother over the raw log held in memory, the raw log flown again
/// through the engine alone (the smoother's third pass), and the derived data's transaction.
struct LandingBench {
    var hours = 24.0
    var rate = 10.0

    init?(arguments: [String]) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst().flatMap(Double.init), value > 0 else {
                FileHandle.standardError.write(
                    Data("usage: runway-bench landing [--hours H] [--rate HZ]\n".utf8))
                return nil
            }
            switch flag {
            case "--hours": hours = value
            case "--rate": rate = value
            default:
                FileHandle.standardError.write(Data("runway-bench landing: unknown flag \(flag)\n".utf8))
                return nil
            }
        }
    }

    func run() {
        print("")
        print(
            "== Landing a \(format(hours, 0)) h flight at \(format(rate, 0)) Hz GPS (recorded, then landed and stored) =="
        )
        let directory = FileManager.default.currentDirectoryPath + "/.build/bench-logbook"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/landing-\(getpid()).sqlite"
        defer {
            for suffix in ["", "-journal", "-rawlog"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
        let clock = ContinuousClock()
        do {
            let recorder = FlightRecorder(logbook: try Logbook(path: path))
            recorder.logbook.prepareJournal()
            let engine = FlightEngine.replaying(FlightComputer(), observers: [recorder])
            var scenario = Scenario.endurance(hours: hours, rate: rate)
            scenario.barometer.rate = 2
            var runner = ScenarioRunner(scenario)
            runner.recordsDistance = false
            runner.speedLogSeconds = 0
            let began = clock.now
            var live: Flight?
            var (touchdown, store) = (Duration.zero, Duration.zero)
            while let event = runner.next() {
                switch event {
                case .input(let simulated):
                    let input = deliveredByTheBoard(simulated)
                    _ = engine.assumeIsolated { $0.handle(input) }
                case .end(let sentAt):
                    let flown = clock.now
                    print("  flown through the engine and recorder in \(format(seconds(flown - began), 1)) s")
                    live = engine.assumeIsolated { $0.end(sentAt: sentAt).result.flight }
                    let ended = clock.now
                    engine.assumeIsolated { $0.close() }  // the recorder stores the landing due
                    (touchdown, store) = (ended - flown, clock.now - ended)
                }
            }
            guard let live else {
                print("  the flight did not land")
                return
            }
            print(
                "  landing: \(format(seconds(touchdown + store), 1)) s (END and the raw log's last commit "
                    + "\(format(seconds(touchdown), 2)) s; smoothing and storing \(format(seconds(store), 1)) s)"
            )
            // The store's parts, one by one (the logbook went to the engine with its recorder).
            try engine.assumeIsolated { engine throws in
                guard let logbook = engine.recorder?.logbook, let id = try logbook.entries().first?.id else {
                    return
                }
                try parts(of: live, id: id, in: logbook)
            }
        } catch {
            print("  no figure: \(error)")
        }
    }

    func parts(of live: Flight, id: Int64, in logbook: Logbook) throws {
        let clock = ContinuousClock()
        do {
            var count = 0
            let read = try clock.measure {
                for _ in try logbook.rawInputSequence(flight: id) { count += 1 }
            }
            let inputs = Array(try logbook.rawInputSequence(flight: id))
            var saved = live
            let smoothing = clock.measure {
                saved = Logbook.saved(live, inputs: inputs, configuration: EngineConfiguration())
            }
            let flying = clock.measure {
                var computer = FlightComputer()
                var ticker = ReplayTicker()
                _ = computer.handle(.start(at: live.startTime, mission: nil, countdown: false))
                _ = ticker.ticks(before: live.startTime)
                for input in inputs {
                    if case .end = input { break }
                    for tick in ticker.ticks(before: input, in: computer) { _ = computer.handle(.tick(tick)) }
                    _ = computer.handle(input)
                }
            }
            let storing = try clock.measure { try logbook.finish(flight: id, with: saved) }
            print(
                "  reading the raw log back once (\(count) inputs): \(format(seconds(read), 1)) s; the smoother over it "
                    + "in memory: \(format(seconds(smoothing), 1)) s, of which flying it again through the engine "
                    + "~\(format(seconds(flying), 1)) s; the derived data's transaction: \(format(seconds(storing), 2)) s"
            )
            print(
                "  the saved flight: \(saved.route.points.count) route points, \(saved.samples.count) samples, "
                    + "\(saved.splits.count) splits; distance \(format(saved.distance, 0)) m (\(saved.distanceMethod))"
            )
        } catch {
            print("  no figure: \(error)")
        }
    }
}
