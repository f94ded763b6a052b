import RunWayCore
import RunWaySimulator
import RunWayStore

/// `runway demo`: the built-in simulated board flies a 5 km Mission Flight through the
/// `FlightEngine` actor, faster than real time, and the runner sees what the board would say.
public enum DemoCommand {
    /// - Parameter speed: simulated seconds per real second; `nil` flies as fast as it can.
    /// - Parameters:
    ///   - logbook: record the flight into this logbook as it flies (recovering any flight a
    ///     power cut left open first).
    ///   - progress: print `at <elapsed>` each simulated second (the kill test reads it).
    /// Touchdown in the logbook, and exactly what a failure there costs the runner.
    static func landing(_ flight: Flight, recorder: FlightRecorder, console: Console) {
        do {
            switch try recorder.land(flight) {
            case .saved(let id): console.err("runway: saved as flight \(id) in \(recorder.logbook.path)")
            case .notRecorded: console.err("runway: not recorded: a flight under 100 m is not saved")
            case nil: break
            }
        } catch {
            let kept = recorder.committedUntil ?? flight.startTime
            let lost = flight.endTime - kept
            if lost <= 0 {
                console.err(
                    "runway: the flight's summary could not be written (\(error)); its raw sensor log is whole, "
                        + "and the next start with room recovers all of it")
            } else {
                console.err(
                    "runway: the flight could not be stored (\(error)): its raw sensor log is kept up to "
                        + "\(UTCTime.duration(kept - flight.startTime)) of \(UTCTime.duration(flight.elapsed)); "
                        + "the last \(UTCTime.duration(lost)) could not be written and are lost. The next start "
                        + "with room recovers the rest")
            }
        }
    }

    public static func run(
        speed: Double?, logbook path: String? = nil, progress: Bool = false, console: Console
    )
        async -> Int32
    {
        let scenario = Scenario.demoMission
        let engine = FlightEngine()
        var recorder: FlightRecorder?
        if let path {
            do {
                let logbook = try Logbook(path: path)
                for recovered in try logbook.recoverInterruptedFlights() {
                    console.out(LogbookCommands.describe(recovered).capitalizedFirst + ".")
                }
                if let failure = logbook.prepareJournal() {
                    console.err(
                        "runway: no raw-log journal (\(failure)); the flight is recorded straight into the logbook, "
                            + "as safely but with more writes")
                }
                recorder = FlightRecorder(logbook: logbook) { error in
                    console.err("runway: recording paused, the flight goes on: \(error)")
                }
            } catch {
                console.err("runway: \(CLIError.logbook(path, error))")
                return 1
            }
        }
        let rotate = scenario.rotateTime
        let mission = scenario.mission.map {
            "target \(Pace.format($0.targetPace))/km ±\(Int($0.allowedDeviation)) s over \(FlightReport.km($0.targetDistance)) km"
        }
        console.out("RunWay demo: \(scenario.name) on the simulated board (\(mission ?? "free flight"))")
        console.out(
            speed.map { "Flying at \(Int($0))× real time; Ctrl-C to stop." }
                ?? "Flying as fast as the engine can.")
        let clear = console.isTerminal ? "\r\u{1B}[K" : ""
        let listener = Task {
            for await callout in engine.callouts {
                let at = callout.time - rotate
                let stamp = at < 0 ? "T\(Int((at).rounded()))" : UTCTime.duration(at)
                console.out("\(clear)  \(FlightReport.padRight(stamp, 7)) >> \(callout.callout.text)")
            }
        }
        let clock = ContinuousClock()
        let wallStart = clock.now
        var runner = ScenarioRunner(scenario)
        var firstTime: Double?
        var nextProgress = rotate + 60
        var result = EndResult.notFlying
        var nextSecond = 0.0
        while let event = runner.next() {
            let t = event.time
            let t0 = firstTime ?? t
            firstTime = t0
            if let speed, speed > 0 {
                let due = wallStart + .milliseconds(Int((t - t0) / speed * 1000))
                if due > clock.now { try? await clock.sleep(until: due) }
            }
            switch event {
            case .input(let input):
                await engine.handle(input)
                if let recorder {
                    do {
                        try recorder.record(
                            input, flying: await engine.isFlying, rotateTime: await engine.rotateTime,
                            mission: await engine.mission, source: "demo")
                    } catch {
                        console.err("runway: cannot record: \(error)")
                    }
                }
            case .end(let sentAt):
                result = await engine.end(sentAt: sentAt)
                if let recorder, let flight = result.flight {
                    landing(flight, recorder: recorder, console: console)
                }
            }
            if progress, t - rotate >= nextSecond {
                console.out("at \(Int((t - rotate).rounded(.down)))")
                nextSecond = (t - rotate).rounded(.down) + 1
            }
            if t >= nextProgress, await engine.phase != .touchdown {
                nextProgress += console.isTerminal ? 1 : 60
                let line = FlightReport.pfdLine(await engine.pfd)
                if console.isTerminal {
                    console.out("\(clear)  \(line)\u{1B}[1A")
                } else {
                    console.out("  \(line)")
                }
            }
        }
        await engine.close()
        await listener.value
        guard let flight = result.flight else {
            console.err("runway demo: the simulated flight did not land (\(result))")
            return 1
        }
        console.out(clear)
        console.out(FlightReport.summary(flight))
        return 0
    }
}
