import Foundation
import RunWayBluetooth
import RunWayControl
import RunWayCore
import RunWayStore

/// The runner's commands from the control socket, flown into the engine as inputs at
/// the board's current time on the GPS axis; the reply says what happened.
struct SessionControl: Sendable {
    let engine: FlightEngine
    let defaultMission: Mission?
    let logbookDirectory: String?
    /// The board's GPS time now (nil before the first fix: commands wait for one).
    let now: @Sendable () async -> Double?
    let battery: @Sendable () -> Double?
    /// The barometer and its barograph (nil on a board without one).
    var barograph: BarographKeeper? = nil
    /// On the real board: commands before the first fix are held and back-filled.
    var clock: BoardClock? = nil
    /// Sounds the end of a USB export (done or failed).
    var exportFinished: @Sendable (Bool) -> Void = { _ in }
    /// The Bluetooth sensors (nil: no sensor service, for `sensorsAbsent`'s reason).
    var sensors: SensorService? = nil
    var sensorsAbsent = SensorRefusal.bluetoothDisabled
    /// The run chosen at the buttons: what a START without a mission flies (nil: `defaultMission`).
    var chooser: RunChooser? = nil
    /// The runner's heart-rate zones: a workout's `zN` targets are taken from them.
    var zones: HeartRateZones = .unconfigured

    /// The mission a START without one flies.
    var chosenMission: Mission? { chooser.map { $0.chosen.mission } ?? defaultMission }

    /// What a START flies, and the configured run's name when it is one.
    struct Plan {
        var mission: Mission? = nil
        var workout: Workout? = nil
        var run: String? = nil
    }

    /// What a START flies: the mission or workout it names, else the run chosen at the buttons.
    /// A workout is a configured run's name, else a workout's text; neither is refused, naming
    /// what is wrong with the text.
    func plan(_ mission: Mission?, _ workout: String?) -> Result<Plan, ControlRefusal> {
        guard let workout else {
            if let mission { return .success(Plan(mission: mission)) }
            return .success(
                Plan(
                    mission: chosenMission, workout: chooser?.chosen.workout,
                    run: chooser.flatMap(ButtonService.chosenName)))
        }
        if let run = chooser?.runs.first(where: { $0.name == workout }), let flown = run.workout {
            return .success(Plan(workout: flown, run: run.name))
        }
        do throws(Workout.Invalid) {
            return .success(Plan(workout: try Workout(parsing: workout, zones: zones)))
        } catch {
            return .failure(.invalid("workout: \(error) (nor is it a configured run's name)"))
        }
    }

    func board() async -> BoardStatus {
        return BoardStatus(
            batteryPercent: battery(), storageFreeBytes: logbookDirectory.flatMap(BoardStatus.freeBytes(in:)),
            flightID: await engine.flightID,
            barometer: barograph?.snapshot(at: MonotonicInstant.now.seconds),
            sensors: await sensorStatus(sensors?.links), bluetooth: sensors?.bluetooth ?? absentBluetooth,
            run: Self.runName(await engine.airborneRun)
                ?? chooser?.chosen.name ?? (defaultMission == nil ? ConfiguredRun.freeRun.name : "mission"))
    }

    /// Status's `run` for a flight in the air: its configured run's name, else `workout`,
    /// `mission` or `free run`; nil on the ground.
    static func runName(_ airborne: AirborneRun?) -> String? {
        guard let airborne else { return nil }
        if let name = airborne.name { return name }
        if airborne.isWorkout { return "workout" }
        return airborne.isMission ? "mission" : ConfiguredRun.freeRun.name
    }

    /// Why there is no sensor service, for status's `bluetooth` (the checklist's reason).
    var absentBluetooth: ControlBluetooth {
        let state: ControlBluetooth.State =
            switch sensorsAbsent {
            case .notOnThisBoard: .notOnThisBoard
            case .noRadio: .noRadio
            default: .disabled
            }
        return ControlBluetooth(state: state, message: sensorsAbsent.description)
    }

    /// The links as the wire has them, their last-seen times moved onto the GPS axis by the
    /// board's offset now (nil before the first fix).
    func sensorStatus(_ links: [SensorLink]?) async -> [ControlSensor]? {
        guard let links else { return nil }
        let monotonic = MonotonicInstant.now.seconds
        let gpsNow = await now()
        return links.map { link in
            link.status(now: monotonic) { seen in gpsNow.map { $0 - (monotonic - seen) } }
        }
    }

    /// A `sensors-*` request, answered by the sensor thread.
    func answerSensors(_ request: SensorRequest) async -> String {
        guard let sensors else { return ControlResponse.refused(.sensors(sensorsAbsent)).line }
        let outcome: ControlOutcome
        switch await sensors.ask(request) {
        case .refused(let refusal): return ControlResponse.refused(.sensors(refusal)).line
        case .scanned(let devices, let paired):
            outcome = ControlOutcome(
                // The strongest signal first: the sensor on the runner is nearly always the nearest.
                sensors: devices.sorted {
                    ($0.rssi ?? -999, $1.address.text) > ($1.rssi ?? -999, $0.address.text)
                }
                .map {
                    ControlSensor(
                        shape: .scanned, address: $0.address.text, name: $0.name,
                        kinds: $0.kinds.compactMap { ControlSensor.Kind(rawValue: $0.rawValue) },
                        rssi: $0.rssi,
                        paired: paired.contains($0.address))
                })
        case .paired(let sensor, let replaced):
            outcome = ControlOutcome(
                paired: Self.identity(sensor), replaced: replaced.isEmpty ? nil : replaced.map(Self.identity))
        case .forgotten(let sensor): outcome = ControlOutcome(forgotten: Self.identity(sensor))
        case .list(let links): outcome = ControlOutcome(sensors: await sensorStatus(links))
        }
        return ControlResponse.ok(outcome).line
    }

    static func identity(_ sensor: PairedSensor) -> ControlSensor {
        ControlSensor(
            shape: .identity, address: sensor.address.text, name: sensor.name,
            kinds: sensor.kinds.compactMap { ControlSensor.Kind(rawValue: $0.rawValue) })
    }

    func answer(_ request: ControlRequest) async -> String {
        if case .status = request {
            return ControlResponse.ok(
                ControlOutcome(status: ControlStatus(await engine.pfd, board: await board()))
            ).line
        }
        if case .exportFinished(let ok) = request {
            exportFinished(ok)
            return ControlResponse.ok(ControlOutcome(result: ok ? .exportDone : .exportFailed)).line
        }
        switch request {
        case .sensorsScan(let seconds): return await answerSensors(.scan(seconds: seconds))
        case .sensorsPair(let sensor): return await answerSensors(.pair(sensor))
        case .sensorsForget(let sensor): return await answerSensors(.forget(sensor))
        case .sensorsList: return await answerSensors(.list)
        default: break
        }
        if let clock, let reply = await beforeTheFirstFix(request, clock: clock) { return reply }
        guard let time = await now() else {
            return ControlResponse.refused(.noGPSTimeYet).line
        }
        let input: EngineInput
        switch request {
        case .status, .subscribe, .exportFinished, .sensorsScan, .sensorsPair, .sensorsForget, .sensorsList:
            return ControlResponse.refused(.notACommand).line
        case .start(let mission, let workout):
            switch plan(mission, workout) {
            case .success(let plan):
                input = .start(
                    at: time, mission: plan.mission, countdown: true, workout: plan.workout, run: plan.run)
            case .failure(let refusal): return ControlResponse.refused(refusal).line
            }
        case .pause: input = .pause(at: time)
        case .resume: input = .resume(at: time)
        case .lap: input = .lap(at: time)
        case .stop(let sentAt): input = .end(at: time, sentAt: sentAt)
        }
        // One visit to the engine: between separate visits the board's next input could come
        // in, and after END that input stores the landing (smoothing a long flight's raw log:
        // a 24 h 10 Hz flight's STOP got no reply in 120 s, issue 29).
        let (phaseBefore, pausedBefore, outputs, phase) = await Self.handle(input, in: engine)
        var outcome = ControlOutcome()
        for case .ended(let result) in outputs {
            switch result {
            case .landed(let flight):
                outcome.result = .landed
                outcome.distance = flight.distance
                outcome.recorded = flight.status == .recorded
            case .abandonedTakeoff: outcome.result = .takeoffAbandoned
            case .ignoredStale: outcome.result = .ignoredStale
            case .notFlying: outcome.result = .notFlying
            }
        }
        if case .start = request, phaseBefore != .preflight && phaseBefore != .touchdown {
            // START on a paused flight resumes it (the engine's rule, as the button's).
            outcome.result =
                pausedBefore && phaseBefore != .takeoff ? .resumed : .already(phaseBefore.rawValue)
        }
        outcome.phase = phase.rawValue
        return ControlResponse.ok(outcome).line
    }

    /// `input` flown into `engine` in one visit: the phase and pause before it, its outputs, and
    /// the phase after it.
    static func handle(_ input: EngineInput, in engine: isolated FlightEngine) -> (
        before: FlightPhase, paused: Bool, outputs: [EngineOutput], after: FlightPhase
    ) {
        let before = engine.phase
        let paused = engine.pfd.pauseReason != nil
        let outputs = engine.handle(input)
        return (before, paused, outputs, engine.phase)
    }

    /// Before the first fix: a START (or a pause) is held and back-filled with its own time once
    /// the GPS gives one; a STOP calls off a held START (and says so), else has nothing to stop.
    /// Nil once there is a fix: the request goes to the engine.
    func beforeTheFirstFix(_ request: ControlRequest, clock: BoardClock) async -> String? {
        func preflight(_ result: ControlResult) -> String {
            ControlResponse.ok(ControlOutcome(result: result, phase: FlightPhase.preflight.rawValue)).line
        }
        let kind: HeldInputs.Kind
        switch request {
        case .status, .subscribe, .exportFinished, .sensorsScan, .sensorsPair, .sensorsForget, .sensorsList:
            return nil
        case .stop:
            switch await clock.end(at: .now) {
            case .time: return nil
            case .cancelledHeldStart:
                return preflight(.heldStartCancelled)
            case .nothingHeld: return preflight(.notFlying)
            }
        case .start(let mission, let workout):
            switch plan(mission, workout) {
            case .success(let plan):
                kind = .start(mission: plan.mission, countdown: true, workout: plan.workout, run: plan.run)
            case .failure(let refusal): return ControlResponse.refused(refusal).line
            }
        case .pause: kind = .pause
        case .resume: kind = .resume
        case .lap: return preflight(.notFlying)
        }
        guard await clock.input(kind, at: .now) == nil else { return nil }
        return preflight(.heldUntilFirstFix)
    }
}
