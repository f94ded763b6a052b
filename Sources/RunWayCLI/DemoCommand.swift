import RunWayCore
import RunWaySimulator
import RunWayStore
import RunWaySystem
import RunWayVoice
import Synchronization

/// `runway demo`: the built-in simulated board flies a 5 km Mission Flight through the flight
/// engine on a thread of its own, as runwayd does, faster than real time, and the runner sees
/// what the board would say.
public enum DemoCommand {
    /// What the logbook holds of the flight at touchdown: nil while it is stored whole, else
    /// the verdict the summary shows instead of RECORDED.
    final class Storing: Sendable {
        let notStored = Mutex<String?>(nil)
        /// The stored flight's id once the logbook saved it: the summary is the saved flight.
        let saved = Mutex<Int64?>(nil)
    }

    /// The recorder's reports, heard from the engine and said to the runner.
    final class Listener: FlightObserver, Sendable {
        let logbook: String
        let console: Console
        let storing: Storing

        init(logbook: String, console: Console, storing: Storing) {
            (self.logbook, self.console, self.storing) = (logbook, console, storing)
        }

        func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
            guard case .news(let report as FlightRecorder.Report) = event else { return }
            say(report, logbook: logbook, console: console, storing: storing)
        }
    }

    /// What the recorder did with the logbook, said to the runner: the flight's number, a
    /// recording that paused, and exactly what a failure at touchdown costs.
    static func say(
        _ report: FlightRecorder.Report, logbook: String, console: Console, storing: Storing? = nil
    ) {
        if case .storeFailed(_, let flight, let committedUntil) = report {
            let lost = flight.endTime - (committedUntil ?? flight.startTime)
            storing?.notStored.withLock {
                $0 =
                    lost > 0
                    ? "NOT RECORDED IN FULL — THE LAST \(UTCTime.duration(lost)) ARE LOST"
                    : "NOT STORED YET — THE NEXT START RECOVERS IT"
            }
        }
        switch report {
        case .stored(.saved(let id)):
            storing?.saved.withLock { $0 = id }
            console.err("runway: saved as flight \(id) in \(logbook)")
        case .stored(.notRecorded):
            console.err("runway: not recorded: a flight under 100 m is not saved")
        case .recordingFailed(let error):
            console.err("runway: recording paused, the flight goes on: \(error)")
        case .storeFailed(let error, let flight, let committedUntil):
            let kept = committedUntil ?? flight.startTime
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

    /// - Parameter speed: simulated seconds per real second; `nil` flies as fast as it can.
    /// - Parameters:
    ///   - logbook: record the flight into this logbook as it flies (recovering any flight a
    ///     power cut left open first).
    ///   - progress: print `at <elapsed>` each simulated second (the kill test reads it).
    public static func run(
        speed: Double?, logbook path: String? = nil, progress: Bool = false, zone: LocalZone = .utc,
        audio: String? = nil, language: VoiceLanguage = .english, console: Console
    )
        async -> Int32
    {
        let scenario = Scenario.demoMission
        var logbook: Logbook?
        var recorderLock: RecorderLock?
        defer { withExtendedLifetime(recorderLock) {} }
        if let path {
            if RecorderLock.isHeld(logbook: path) {
                console.err(
                    "runway: \(path) is being recorded into by runwayd (or another demo); record the demo elsewhere"
                )
                return 1
            }
            recorderLock = RecorderLock(logbook: path)
            do {
                let opened = try Logbook(path: path)
                for recovered in try opened.recoverInterruptedFlights() {
                    console.out(LogbookCommands.describe(recovered).capitalizedFirst + ".")
                }
                // Made before takeoff: with the journal in place, a card that fills loses nothing.
                if let failure = opened.prepareJournal() {
                    console.err(
                        "runway: no raw-log journal (\(failure)); the flight is recorded straight into the logbook, "
                            + "as safely but with more writes")
                }
                logbook = opened
            } catch {
                console.err("runway: \(CLIError.logbook(path, error))")
                return 1
            }
        }
        let rotate = scenario.rotateTime
        let mission = scenario.mission.map { "target " + MissionOption.describe($0, goalSeparator: " over ") }
        console.out("RunWay demo: \(scenario.name) on the simulated board (\(mission ?? "free flight"))")
        console.out(
            speed.map { "Flying at \(Int($0))× real time; Ctrl-C lands the flight (END)." }
                ?? "Flying as fast as the engine can.")
        let clear = console.styled ? "\r\u{1B}[K" : ""
        let storing = Storing()
        let executor = ThreadExecutor(name: "flight engine")
        let listener = Listener(logbook: path ?? "", console: console, storing: storing)
        let audioWriter = audio.map { _ in FlightAudioWriter() }
        var observers: [any FlightObserver] =
            logbook.map { [FlightRecorder(logbook: $0, source: "demo"), listener] } ?? []
        if let audioWriter { observers.append(audioWriter) }
        let engine = FlightEngine(on: executor, observers: observers)
        func show(_ outputs: [EngineOutput]) {
            for case .callout(let callout) in outputs {
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
        // Ctrl-C is END: the flight lands, is saved and summarised (a second Ctrl-C quits).
        let interrupt = InterruptFlag.install()
        defer { interrupt.uninstall() }
        while let event = runner.next() {
            let t = event.time
            if interrupt.isRaised {
                console.out("\(clear)  Ctrl-C: END")
                let outputs = await engine.handle(.end(at: t, sentAt: nil))
                show(outputs)
                for case .ended(let ended) in outputs { result = ended }
                break
            }
            let t0 = firstTime ?? t
            firstTime = t0
            if let speed, speed > 0 {
                let due = wallStart + .milliseconds(Int((t - t0) / speed * 1000))
                if due > clock.now { try? await clock.sleep(until: due) }
            }
            switch event {
            case .input(let input):
                show(await engine.handle(input))
            case .end(let sentAt):
                let outputs = await engine.handle(.end(at: t, sentAt: sentAt))
                show(outputs)
                for case .ended(let ended) in outputs { result = ended }
            }
            if progress, t - rotate >= nextSecond {
                console.out("at \(Int((t - rotate).rounded(.down)))")
                nextSecond = (t - rotate).rounded(.down) + 1
            }
            if t >= nextProgress, await engine.phase != .touchdown {
                nextProgress += console.styled ? 1 : 60
                let line = FlightReport.pfdLine(await engine.pfd)
                if console.styled {
                    console.out("\(clear)  \(line)\u{1B}[1A")
                } else {
                    console.out("  \(line)")
                }
            }
        }
        await engine.close()
        await executor.shutdown()
        guard var flight = result.flight else {
            console.err("runway demo: the simulated flight did not land (\(result))")
            return 1
        }
        // The summary is the flight the logbook saved (smoothed at touchdown), as `show` prints it.
        // The recorder owned the logbook connection; the engine is shut down, so this reads anew.
        if let id = storing.saved.withLock({ $0 }), let path {
            do {
                if let saved = try Logbook(path: path, access: .readOnly).flight(id: id) {
                    flight = saved.flight
                }
            } catch {
                console.err("runway demo: reading the saved flight back: \(CLIError.logbook(path, error))")
            }
        }
        console.out(clear)
        // A flight the logbook could not store whole is not RECORDED, and the demo failed.
        let notStored = flight.status == .recorded ? storing.notStored.withLock { $0 } : nil
        console.out(FlightReport.summary(flight, zone: zone, verdict: notStored))
        if let audio, let audioWriter {
            do {
                for line in try audioWriter.write(to: audio, language: language) { console.out(line) }
            } catch {
                console.err("runway demo: \(error)")
                return 1
            }
        }
        return notStored == nil ? 0 : 1
    }
}
