/// The flight state machine: composes the per-rule value types in the order the SPEC gives
/// them. Synchronous and deterministic — the `FlightEngine` actor owns one and publishes what it
/// returns; tests, replays and the bench drive it directly.
public struct FlightComputer: Sendable {
    public let configuration: EngineConfiguration
    public private(set) var phase: FlightPhase = .preflight
    /// The latest time seen on any input.
    public private(set) var now: Double = -.infinity
    private var lastFixTime: Double?
    private var signal: SignalQuality = .noSignal
    private var idleHeading: Double?
    private var countdown: TakeoffCountdown?
    private var pendingMission: Mission?
    private var pendingWorkout: Workout?
    private var pendingRun: String?
    private var flight: FlightInProgress?
    /// An input dated far ahead of the engine's time, held until the next input says whether it
    /// is a glitch or a real jump (`EngineConfiguration.maximumFixLead`).
    private var leadingInput: EngineInput?
    /// Inputs (fixes, readings, ticks) dropped as dated far ahead of the flight's own time line,
    /// for diagnostics.
    public private(set) var fixesOffTheTimeLine = 0
    /// Set before START to fly a landed flight again on its smoothed track (`FlightSmoothing`):
    /// the flight's distance then comes from it.
    public var distanceProfile: DistanceProfile?
    /// …and its barometer's altitude averaged either side of each sample (`SmoothedAltitude`):
    /// the flight's elevation gain counts it.
    public var smoothedAltitude: SmoothedAltitude?
    /// The flight a forgotten stop landed (`StandstillWatch`), until the next START: a replay
    /// that flies a raw log through such a landing reads it here (its END then finds nothing
    /// flying).
    public private(set) var landedByItself: Flight?

    public init(configuration: EngineConfiguration = EngineConfiguration()) {
        self.configuration = configuration
    }

    public var isFlying: Bool { flight != nil }

    /// What the flight in the air (or counting down to take off) flies, for status's `run`; nil
    /// when nothing does (then the run the buttons have chosen is the one START would fly).
    public var airborneRun: AirborneRun? {
        if let flight {
            return AirborneRun(
                name: flight.runName, isWorkout: flight.workout != nil, isMission: flight.mission != nil)
        }
        guard countdown != nil else { return nil }
        return AirborneRun(
            name: pendingRun, isWorkout: pendingWorkout != nil, isMission: pendingMission != nil)
    }

    /// What the flight in progress keeps that grows with its length (issue 29's bound).
    public var retained: RetainedMemory { flight?.retained ?? RetainedMemory() }

    /// The current flight's ROTATE time: its start, and the start a replay must use.
    public var rotateTime: Double? { flight?.rotateAt }

    /// The current flight's mission targets, if it is a Mission Flight.
    public var mission: Mission? { flight?.mission }
    /// The current flight's workout and where it is, if it flies one.
    public var workout: WorkoutTracker? { flight?.workout }

    /// The live readout now.
    public var pfd: PFD {
        // Read through the optional in place: binding it (`guard let flight`) copied the whole
        // flight, 5 KB and a retain of each of its buffers, once for every input.
        if let readout = flight?.pfd(at: now, phase: phase, signal: signal) { return readout }
        var idle = PFD.idle(at: now.isFinite ? now : 0)
        idle.phase = phase
        idle.signal = signal
        idle.heading = idleHeading
        return idle
    }

    // MARK: - Inputs

    /// Whether `input` is dated so far ahead of the engine's time that `handle` holds it back
    /// (`EngineConfiguration.maximumFixLead`); replays do not tick toward such an input.
    public func isFarAhead(_ input: EngineInput) -> Bool {
        now.isFinite && input.mayBeHeld && input.time - now > configuration.maximumFixLead
    }

    public mutating func handle(_ input: EngineInput) -> [EngineOutput] {
        guard now.isFinite, input.mayBeHeld else { return apply(input) }
        if let held = leadingInput {
            leadingInput = nil
            if input.time > held.time, input.time - held.time <= configuration.maximumFixLead {
                // The next input continues from the held one: time really jumped.
                return apply(held) + apply(input)
            }
            fixesOffTheTimeLine += 1
        }
        if isFarAhead(input) {
            leadingInput = input
            return [.state(pfd)]
        }
        return apply(input)
    }

    /// One misdated input must not move the engine's clock: everything after it would look old
    /// (one fix per time), and the FDR would fill every mark of the jump. So an input dated more
    /// than `maximumFixLead` ahead of the latest one is held; the next input decides. (A START or
    /// END is never held: a runner's END must always land.)
    private mutating func apply(_ input: EngineInput) -> [EngineOutput] {
        var out: [EngineOutput] = []
        advance(to: input.time, &out)
        switch input {
        case .fix(let fix): handleFix(fix, &out)
        case .pressure(let sample): flight?.add(sample)
        case .body(let sample): flight?.add(sample)
        case .tick: break
        case .barometerLost:
            if flight?.barometerAvailable == true {
                flight?.barometerAvailable = false
                out.append(.callout(TimedCallout(.error("BAROMETER LOST"), at: now)))
            }
        case .start(let time, let mission, let countdown, let workout, let run):
            // START on a paused flight resumes it (issue 27: a bump on PAUSE, and START did not
            // undo it).
            if flight?.pause.isPaused == true {
                resume(&out)
            } else {
                start(at: time, mission: mission, workout: workout, run: run, countdown: countdown, &out)
            }
        case .pause: pause(&out)
        case .resume: resume(&out)
        case .togglePause:
            if flight?.pause.isPaused == true { resume(&out) } else { pause(&out) }
        case .lap(let time):
            if phase == .cruise || phase == .approach { flight?.lap(at: time, &out) }
        case .end(_, let sentAt):
            let (result, outputs) = end(sentAt: sentAt)
            out += outputs.filter { if case .state = $0 { false } else { true } }
            out.append(.ended(result))
        }
        if let due = flight?.landingDue { landStanding(due, &out) }
        out.append(.state(pfd))
        return out
    }

    /// Lands the flight in the air as a forgotten stop at `lastMovement` (a replay of a flight
    /// whose raw log ends before the standstill that landed it live); nil when nothing flies.
    public mutating func landAfterStandstill(lastMovement: Double) -> Flight? {
        guard flight != nil else { return nil }
        var out: [EngineOutput] = []
        landStanding((lastMovement, max(0, now - lastMovement)), &out)
        return landedByItself
    }

    /// A forgotten stop (`StandstillWatch`): the flight lands at its last movement, said so.
    private mutating func landStanding(_ due: (at: Double, seconds: Double), _ out: inout [EngineOutput]) {
        guard var current = flight else { return }
        current.decide(.standstillLanding, at: now, value: (due.seconds / 60).rounded(.down))
        out.append(
            .callout(TimedCallout(.standstill(minutes: Int(due.seconds / 60), landing: true), at: now)))
        var landed = current.land(at: due.at, &out)
        landed.landing = .standstill
        landedByItself = landed
        flight = nil
        phase = .touchdown
        out.append(.callout(TimedCallout(.touchdown, at: now)))
        out.append(.ended(.landed(landed)))
    }

    /// END. `sentAt` is when the command was sent; `nil` is always obeyed.
    public mutating func end(sentAt: Double?) -> (result: EndResult, outputs: [EngineOutput]) {
        switch phase {
        case .preflight, .touchdown:
            return (.notFlying, [])
        case .takeoff:
            guard StaleStopRule.obeys(sentAt: sentAt, flightStartedAt: countdown?.pressedAt) else {
                return (.ignoredStale, [])
            }
            abandonTakeoff()
            return (.abandonedTakeoff, [.state(pfd)])
        case .cruise, .approach:
            guard var current = flight,
                StaleStopRule.obeys(sentAt: sentAt, flightStartedAt: current.pressedAt)
            else { return (.ignoredStale, []) }
            var out: [EngineOutput] = []
            let landed = current.land(at: now, &out)
            flight = nil
            phase = .touchdown
            out.append(.callout(TimedCallout(.touchdown, at: now)))
            out.append(.state(pfd))
            return (.landed(landed), out)
        }
    }

    // MARK: - Time

    private mutating func advance(to time: Double, _ out: inout [EngineOutput]) {
        guard time.isFinite, time > now else { return }
        now = time
        if phase == .takeoff, var current = countdown {
            for n in current.counts(upTo: time) {
                let due = current.pressedAt + Double(current.from - n)
                out.append(.callout(TimedCallout(.countdown(n), at: due)))
            }
            countdown = current
            if time >= current.rotateAt {
                rotate(at: current.rotateAt, pressedAt: current.pressedAt, &out)
            }
        }
        if let last = lastFixTime, time - last >= configuration.pause.signalLostAfter {
            signal = .noSignal
        }
        flight?.advance(to: time, &out)
    }

    // MARK: - Commands

    private mutating func start(
        at time: Double, mission: Mission?, workout: Workout?, run: String?, countdown withCountdown: Bool,
        _ out: inout [EngineOutput]
    ) {
        guard phase == .preflight || phase == .touchdown else { return }
        pendingWorkout = workout
        pendingRun = run
        if withCountdown && configuration.countdownFrom > 0 {
            phase = .takeoff
            pendingMission = mission
            countdown = TakeoffCountdown(pressedAt: time, from: configuration.countdownFrom)
            advance(to: time, &out)
            // advance() skips a time it has already seen; sound "3" now.
            if var current = countdown {
                for n in current.counts(upTo: now) {
                    out.append(
                        .callout(
                            TimedCallout(.countdown(n), at: current.pressedAt + Double(current.from - n))))
                }
                countdown = current
            }
        } else {
            pendingMission = mission
            rotate(at: max(time, now), pressedAt: time, &out)
        }
    }

    private mutating func rotate(at time: Double, pressedAt: Double, _ out: inout [EngineOutput]) {
        countdown = nil
        phase = .cruise
        landedByItself = nil
        flight = FlightInProgress(
            rotateAt: time, pressedAt: pressedAt, mission: pendingWorkout == nil ? pendingMission : nil,
            workout: pendingWorkout, configuration: configuration)
        flight?.runName = pendingRun
        flight?.profile = distanceProfile
        flight?.smoothedAltitude = smoothedAltitude
        out.append(
            .began(
                rotate: time, pressedAt: pressedAt, mission: pendingWorkout == nil ? pendingMission : nil,
                workout: pendingWorkout, run: pendingRun))
        pendingMission = nil
        pendingWorkout = nil
        pendingRun = nil
        out.append(.callout(TimedCallout(.rotate, at: time)))
        flight?.beginWorkout(at: time, &out)
        flight?.advance(to: max(now, time), &out)
    }

    private mutating func abandonTakeoff() {
        countdown = nil
        pendingMission = nil
        pendingWorkout = nil
        pendingRun = nil
        phase = .preflight
    }

    private mutating func pause(_ out: inout [EngineOutput]) {
        if phase == .takeoff {
            abandonTakeoff()
            return
        }
        flight?.manualPause(at: now, &out)
    }

    private mutating func resume(_ out: inout [EngineOutput]) {
        flight?.manualResume(at: now, &out)
    }

    // MARK: - Fixes

    private mutating func handleFix(_ fix: Fix, _ out: inout [EngineOutput]) {
        guard fix.hasPosition else {
            signal = .noSignal
            return
        }
        // gpsd sends several TPVs per epoch with the same time: one fix per time.
        if let last = lastFixTime, fix.time <= last { return }
        lastFixTime = fix.time
        signal = SignalQuality(accuracy: fix.horizontalAccuracy)
        guard flight != nil else {
            idleHeading = fix.track ?? idleHeading
            return
        }
        // Mutated in place: moving the flight out and back copied its 5 KB twice a fix.
        flight?.add(fix, &out)
        if let next = flight?.phase { phase = next }
    }
}

/// The run a flight flies, as status names it (issue 27): a configured run's name when it was
/// one, else what kind it is. `runway start --workout TEXT` flew a workout the buttons had not
/// chosen, and status went on naming the buttons' choice.
public struct AirborneRun: Sendable, Equatable {
    /// The configured run's name (`runs[].name`); nil for a text workout, a `--mission` or a free
    /// run.
    public var name: String?
    public var isWorkout: Bool
    public var isMission: Bool

    public init(name: String?, isWorkout: Bool, isMission: Bool) {
        self.name = name
        self.isWorkout = isWorkout
        self.isMission = isMission
    }
}
