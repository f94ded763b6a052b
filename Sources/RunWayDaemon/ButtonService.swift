import RunWayCore
import RunWayHardware

/// The three buttons as a service: the lines are opened in `run()` and read on a thread of their
/// own (`ButtonReader`), stopped and joined on cancellation. Presses become engine inputs at the
/// press's own time — the kernel's `CLOCK_MONOTONIC` stamp mapped onto GPS time by the board's
/// time base, or held until the first fix (a START pressed while the GPS is still looking is
/// back-filled).
///
/// START starts (with the configured mission), resumes a paused flight, and a short press while
/// running says the status now (distance, time, pace, a mission's margin: the runner asks
/// without looking); PAUSE toggles
/// pause; END ends only when held 2 s (the confirmation beep sounds then, so the runner knows to
/// let go) — a bump never ends a run; pressed briefly in flight it is the lap (`manualLap`).
struct ButtonService: Service {
    let name = "buttons"
    let roles: [ButtonRole]
    /// Opens the lines (on the cooperative pool: opening only asks the kernel for them).
    let open: @Sendable () throws -> any StoppableGPIOLines
    let engine: FlightEngine
    let clock: BoardClock
    let defaultMission: Mission?
    let annunciator: Annunciator
    let log: DaemonLog
    /// The run START flies; PAUSE pressed briefly in preflight steps it (nil: `defaultMission`).
    var chooser: RunChooser? = nil
    /// The run's name when the runner chose a configured one (not the free run or the mission).
    static func chosenName(_ chooser: RunChooser) -> String? {
        let run = chooser.chosen
        return run == .freeRun || run.name == "mission" ? nil : run.name
    }

    /// END pressed briefly in flight is the lap (`run.manual_lap`); off: it only says to hold it.
    var manualLap = true

    func run() async throws {
        let lines: any StoppableGPIOLines
        do {
            lines = try open()
        } catch {
            log.log(.error, "buttons: \(error); use runway start / pause / resume / stop")
            return await waitForCancellation()
        }
        let (presses, sink) = AsyncStream.makeStream(
            of: ButtonPress.self, bufferingPolicy: .bufferingNewest(64))
        let (roles, log) = (self.roles, self.log)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await runOnOwnThread(
                    "buttons",
                    {
                        log.log(.info, "buttons: watching \(roles.map(\.rawValue).joined(separator: ", "))")
                        var decoder = ButtonDecoder(roles: roles)
                        ButtonReader.run(lines: lines, decoder: &decoder) { sink.yield($0) }
                        sink.finish()
                    }, stop: { lines.stop() })
            }
            for await press in presses { await handle(press) }
        }
    }

    func handle(_ press: ButtonPress) async {
        let (role, seconds, held): (ButtonRole, Double, Bool) =
            switch press {
            case .short(let role, let at): (role, at, false)
            case .long(let role, let at): (role, at, true)
            }
        let instant = MonotonicInstant(seconds: seconds)
        log.log(.info, "button: \(press)")
        let kind: HeldInputs.Kind
        switch role {
        case .start:
            let pfd = await engine.pfd
            // Briefly while running: the status now. While paused, START resumes (the engine's
            // rule: a bump on PAUSE is undone by the button a runner reaches for first).
            if !held, pfd.phase == .cruise || pfd.phase == .approach, pfd.pauseReason == nil {
                annunciator.statusRequested(at: pfd.time)
                return
            }
            kind = .start(
                mission: chooser.map { $0.chosen.mission } ?? defaultMission, countdown: true,
                workout: chooser?.chosen.workout, run: chooser.flatMap(Self.chosenName))
        case .pause:
            // Before a run, PAUSE chooses the run: nothing is flying to pause.
            if let chooser, !held {
                let pfd = await engine.pfd
                if pfd.phase == .preflight || pfd.phase == .touchdown {
                    let (run, position) = chooser.next()
                    log.log(.info, "run chosen: \(run.name) (\(position))")
                    annunciator.runChosen(run.name, position: position)
                    return
                }
            }
            kind = .togglePause
        case .end:
            guard held else {
                let pfd = await engine.pfd
                if manualLap, pfd.phase == .cruise || pfd.phase == .approach,
                    let time = await clock.gps(instant)
                {
                    log.log(.info, "END pressed briefly: lap")
                    await engine.handle(.lap(at: time))
                } else {
                    log.log(.info, "END pressed briefly: hold it 2 s to end the run")
                }
                return
            }
            annunciator.holdConfirmed()
            // Nothing can be flying before the first fix: an END then calls off a held START.
            let time: Double
            switch await clock.end(at: instant) {
            case .time(let gps): time = gps
            case .cancelledHeldStart:
                log.log(.notice, "END held before the first fix: held START cancelled")
                return
            case .nothingHeld: return
            }
            let outputs = await engine.handle(.end(at: time, sentAt: nil))
            for case .ended(let result) in outputs {
                switch result {
                case .landed(let flight):
                    log.log(
                        .notice, "END held: landed, \(Int(flight.distance)) m (\(flight.status.rawValue))")
                case .abandonedTakeoff: log.log(.notice, "END held: takeoff abandoned")
                case .ignoredStale, .notFlying: break
                }
            }
            return
        }
        if let input = await clock.input(kind, at: instant) { await engine.handle(input) }
    }
}
