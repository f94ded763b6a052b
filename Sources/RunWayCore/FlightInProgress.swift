/// The state of the flight between ROTATE and TOUCHDOWN.
struct FlightInProgress: Sendable {
    let rotateAt: Double
    /// When START was pressed: the stale-stop rule compares against this.
    let pressedAt: Double
    let mission: Mission?
    let configuration: EngineConfiguration
    var phase: FlightPhase = .cruise
    var movement: MovementFilter
    var odometer: Odometer
    var smoother: SpeedSmoother
    var pause: PauseDetector
    var altitude: AltitudeFilter
    var gain: ElevationGain
    /// The receiver's altitude: the elevation of a flight whose barometer gave nothing.
    var gpsAltitude: GPSAltitudeFilter
    var gpsGain: ElevationGain
    var splits: SplitTracker
    var clock: FDRClock
    var paceAlerts: PaceAlertMonitor?
    var heartRateAlerts: HeartRateAlertMonitor?
    var minimums: MinimumsMonitor?
    /// The workout being flown, step by step (issue 27); its step's bands are the alerts'.
    var workout: WorkoutTracker?
    /// What the board decided for the runner (`FlightDecision`).
    var decisions: [FlightDecision] = []
    /// The configured run the runner chose, by name (nil: none chosen by name).
    var runName: String?
    /// The mission's goal was reached: MISSION COMPLETE said, band alerts off.
    var missionComplete = false
    /// The smoother's re-seeds the pace verdict has seen.
    var reseedsJudged = 0
    var route: [RoutePoint] = []
    var samples: [FDRSample] = []
    var alerts: [AlertEpisode] = []
    var heartRate = RunningMean()
    var maxHeartRate: Double?
    var zoneTime: HeartRateZoneTime
    var cadence = RunningMean()
    var latestBody: (heartRate: (Double, Double)?, cadence: (Double, Double)?) = (nil, nil)
    var heading: Double?
    var position: Coordinate?
    var lastTime: Double
    /// The newest accepted fix that stayed inside the anchor.
    var lastHeld: Fix?
    /// False from a barometer loss until pressure samples return: altitude reads as missing.
    var barometerAvailable = true
    /// A landed flight flown again after the touchdown smoother: its distance at every moment
    /// comes from the smoothed track instead of the odometer (`FlightSmoothing`).
    var profile: DistanceProfile?
    /// Running while manually paused, riding a vehicle, a forgotten stop (issue 27).
    var slips: SlipWatch
    var vehicle: VehicleWatch
    var standstill: StandstillWatch
    /// The last fix that moved while a vehicle paused the flight (its standstill counts from it).
    var vehicleMovedAt: Double?
    /// The odometer's distance when the open vehicle streak began: taken back if it is one.
    var distanceBeforeVehicle: Double?
    /// Set when a standstill lands the flight: the last movement and how long it stood.
    var landingDue: (at: Double, seconds: Double)?

    /// The flight's distance at `time`: the odometer's as shown, or the smoothed track's.
    func distance(at time: Double) -> Double { profile?.distance(at: time) ?? odometer.shown }
    /// The distance on the PFD: `distance(at:)`, carried through a silence (`Odometer.display`).
    func displayedDistance(at time: Double) -> Double { profile?.distance(at: time) ?? odometer.display }

    /// The barometer once it has given an altitude; the GPS until then; nothing without either
    /// (SPEC: missing, never 0).
    var elevationSource: ElevationSource? {
        if gain.terrainAltitude != nil { return .barometer }
        return gpsGain.terrainAltitude != nil ? .gps : nil
    }

    var elevation: ElevationGain { elevationSource == .gps ? gpsGain : gain }

    var altitudeNow: Double? {
        switch elevationSource {
        case .barometer: barometerAvailable ? gain.terrainAltitude : nil
        case .gps: gpsGain.terrainAltitude
        case nil: nil
        }
    }

    init(
        rotateAt: Double, pressedAt: Double, mission: Mission?, workout: Workout? = nil,
        configuration: EngineConfiguration
    ) {
        self.rotateAt = rotateAt
        self.pressedAt = pressedAt
        self.mission = mission
        self.configuration = configuration
        lastTime = rotateAt
        movement = MovementFilter(configuration: configuration.movement)
        odometer = Odometer(configuration: configuration.odometer)
        smoother = SpeedSmoother(configuration: configuration.smoother)
        pause = PauseDetector(configuration: configuration.pause, startedAt: rotateAt)
        altitude = AltitudeFilter(configuration: configuration.altitude, rotateAt: rotateAt)
        gain = ElevationGain(configuration: configuration.elevationGain)
        gpsAltitude = GPSAltitudeFilter(configuration: configuration.gpsAltitude)
        gpsGain = ElevationGain(configuration: configuration.gpsElevationGain)
        clock = FDRClock(interval: configuration.sampleInterval)
        splits = SplitTracker(
            splitLength: configuration.splitLength, minimumTail: min(100, configuration.splitLength / 10))
        slips = SlipWatch(configuration: configuration.slips)
        vehicle = VehicleWatch(configuration: configuration.vehicle)
        standstill = StandstillWatch(configuration: configuration.standstill)
        zoneTime = HeartRateZoneTime(
            zones: configuration.heartRateZones, maxAge: configuration.bodySampleMaxAge)
        if let mission {
            paceAlerts = mission.pace.map {
                PaceAlertMonitor(band: $0, configuration: configuration.paceAlerts)
            }
            heartRateAlerts = mission.heartRate.map {
                HeartRateAlertMonitor(band: $0, configuration: configuration.heartRateAlerts)
            }
            minimums = MinimumsMonitor(goal: mission.goal)
        }
        self.workout = workout.map { WorkoutTracker(workout: $0) }
    }

    var pace: Double? { pause.isPaused ? nil : Pace.secondsPerKilometre(speed: smoother.speed) }

    func progress(at time: Double) -> Progress {
        Progress(
            elapsed: time - rotateAt, distance: distance(at: time), movingTime: pause.movingTime(at: time),
            elevationGain: elevation.total)
    }

    func latest(_ value: (Double, Double)?, at time: Double) -> Double? {
        guard let (sampleTime, v) = value, time - sampleTime <= configuration.bodySampleMaxAge else {
            return nil
        }
        return v
    }

    func pfd(at time: Double, phase: FlightPhase, signal: SignalQuality)
        -> PFD
    {
        // Heart rate before pace (`recordAlertChanges`), then MINIMUMS.
        var gpws = GPWSState.normal
        if case .alerting(let kind) = heartRateAlerts?.state {
            gpws = kind == .heartRateHigh ? .heartRateHigh : .heartRateLow
        } else if case .alerting(let kind) = paceAlerts?.state {
            gpws = kind == .sinkRate ? .sinkRate : .overspeed
        } else if isInApproach(at: time) {
            gpws = .minimums
        }
        return PFD(
            time: time, phase: phase, elapsed: max(0, time - rotateAt),
            movingTime: pause.movingTime(at: time),
            distance: displayedDistance(at: time), speed: pause.isPaused ? 0 : smoother.speed, pace: pace,
            altitude: altitudeNow, heading: heading, gpws: gpws, pauseReason: pause.pauseReason,
            signal: signal, heartRate: latest(latestBody.heartRate, at: time),
            cadence: latest(latestBody.cadence, at: time), completedSplits: splits.completed.count,
            alertPace: paceAlerts?.verdictPace, alertHeartRate: heartRateAlerts?.verdictHeartRate,
            workoutStep: workoutStep(at: time))
    }

    /// The mission's progress toward its goal: metres, or moving seconds.
    func goalProgress(at time: Double) -> Double? {
        switch mission?.goal {
        case .distance: distance(at: time)
        case .duration: pause.movingTime(at: time)
        case nil: nil
        }
    }

    /// Inside MINIMUMS' window, and the goal not yet reached: after MISSION COMPLETE a moving
    /// time taken back by an auto-pause's backdating must not bring APPROACH back.
    func isInApproach(at time: Double) -> Bool {
        guard !missionComplete, let minimums, let progress = goalProgress(at: time) else { return false }
        return minimums.isInApproach(progress)
    }

    // MARK: Time

    mutating func advance(to time: Double, _ out: inout [EngineOutput]) {
        guard time >= lastTime else { return }
        lastTime = time
        if !pause.isPaused || pause.pauseReason == .signalLost { odometer.carry(to: time) }
        recordSamples(clock.marks(before: time - rotateAt))
        apply(pause.advance(to: time), at: time, &out)
        watchStandstill(at: time, &out)
    }

    mutating func recordSamples(_ marks: [Double]) {
        for mark in marks {
            samples.append(
                FDRSample(
                    elapsed: mark, distance: distance(at: rotateAt + mark), pace: pace,
                    heartRate: latest(latestBody.heartRate, at: rotateAt + mark),
                    cadence: latest(latestBody.cadence, at: rotateAt + mark), altitude: altitudeNow,
                    heading: heading, paused: pause.isPaused))
        }
    }

    // MARK: Sensors

    mutating func add(_ reported: Fix, _ out: inout [EngineOutput]) {
        // A speed no runner reaches is a receiver glitch (a Doppler spike), not a pace: it is
        // treated as unknown everywhere, so pace and OVERSPEED come from positions instead.
        var fix = reported
        let reportedSpeed = reported.speed
        if let speed = fix.speed, speed > configuration.movement.maxSpeed { fix.speed = nil }
        let previousAnchor = movement.anchor
        let verdict = movement.assess(fix)
        var chord = 0.0
        var fallbackSpeed: Double?
        switch verdict {
        case .rejected(.poorAccuracy):
            // The receiver is there, its position too rough to count (tree cover reads 30–60 m):
            // no signal loss, and its speed still says whether the runner is moving (Doppler
            // does not share the position's error). Without this, 8 s of rough fixes paused a
            // runner under trees as "signal lost" (tree cover: up to 57 s).
            observeSpeedOnly(fix, &out)
            return
        case .rejected(.impossibleJump):
            // The position jumped, not the runner: the receiver's speed (Doppler) does not share
            // the position's error, so it goes on integrating and says whether the runner moves.
            // Without this, a cold start's fixes snapping 200–500 m away were 30 s of silence:
            // the distance shown froze and a signal-loss pause began. (helper-4's rule, wt/gate.)
            odometer.hidesPending = pause.pauseReason == .manual || pause.pauseReason == .vehicle
            odometer.integrate(time: fix.time, speed: fix.speed)
            observeSpeedOnly(fix, &out)
            return
        case .rejected:
            return
        case .first:
            break
        case .reanchored:
            // The flight's first position was an outlier: this fix takes its place.
            if route.count == 1 { route.removeAll() }
        case .held(let distance):
            lastHeld = fix
            if let anchor = previousAnchor, fix.time > anchor.time {
                fallbackSpeed = distance / (fix.time - anchor.time)
            }
        case .counted(let step):
            chord = step
            if let anchor = previousAnchor, fix.time > anchor.time {
                fallbackSpeed = step / (fix.time - anchor.time)
            }
        }
        odometer.hidesPending = pause.pauseReason == .manual || pause.pauseReason == .vehicle
        odometer.integrate(time: fix.time, speed: fix.speed)
        watchRunner(at: fix.time, speed: reportedSpeed, &out)
        if let height = fix.altitude, fix.time >= rotateAt,
            let relative = gpsAltitude.add(time: fix.time, altitude: height)
        {
            gpsGain.add(time: fix.time, altitude: relative)
        }
        let manuallyPaused = pause.pauseReason == .manual || pause.pauseReason == .vehicle
        var increment = 0.0
        if case .counted = verdict {
            if manuallyPaused {
                odometer.discardPending()
            } else {
                let duration = previousAnchor.map { fix.time - $0.time } ?? .infinity
                increment = odometer.count(
                    chord: chord, duration: duration, from: previousAnchor?.coordinate, to: fix.coordinate)
            }
        }
        // "When gpsd gives no speed, use distance/time" — and when its speed is not believed.
        let reported = odometer.speedIsTrusted ? fix.speed : nil
        let speed = reported ?? fallbackSpeed
        // A step while the receiver's own speed says "standing" is wander spending the last
        // braking metres, not the runner setting off again.
        let moved = increment >= 1 && (reported.map { $0 >= configuration.pause.movingSpeed } ?? true)
        apply(
            pause.observeFix(
                time: fix.time, speed: speed, moved: increment >= 1, step: increment,
                speedIsDoppler: reported != nil,
                turn: fix.track.flatMap { track in heading.map { Geodesy.turn(from: $0, to: track) } }),
            at: fix.time, &out)
        position = fix.coordinate
        if let track = fix.track {
            heading = track
        } else if case .counted = verdict, let anchor = previousAnchor {
            heading = Geodesy.bearing(from: anchor.coordinate, to: fix.coordinate)
        }
        switch verdict {
        case .first, .counted, .reanchored:
            if !manuallyPaused {
                route.append(RoutePoint(elapsed: fix.time - rotateAt, coordinate: fix.coordinate))
            }
        default: break
        }
        // Flown again on the smoothed track, the distance moves at every fix while moving.
        if moved || (profile != nil && !pause.isPaused) {
            for split in splits.record(progress(at: fix.time)) {
                out.append(.callout(TimedCallout(.split(order: split.order, pace: split.pace), at: fix.time)))
            }
        }
        smoother.update(speed)
        updateMission(at: fix.time, &out)
    }

    /// A fix whose position does not count but whose speed does: the receiver is there (no
    /// signal loss) and its Doppler says whether the runner moves.
    private mutating func observeSpeedOnly(_ fix: Fix, _ out: inout [EngineOutput]) {
        let speed = odometer.speedIsTrusted ? fix.speed : nil
        apply(
            pause.observeFix(
                time: fix.time, speed: speed, moved: false, step: 0, speedIsDoppler: speed != nil),
            at: fix.time, &out)
    }

    mutating func add(_ sample: PressureSample) {
        guard case .accepted(let value) = altitude.add(sample) else { return }
        barometerAvailable = true
        gain.add(time: sample.time, altitude: value)
    }

    mutating func add(_ sample: BodySample) {
        guard sample.time >= rotateAt else { return }
        heartRate.add(sample.heartRate)
        cadence.add(sample.cadence)
        splits.add(sample)
        workout?.add(sample)
        // The latest is the newest by time: a reading older than the one shown (out of order)
        // counts in the averages and the maximum, but does not become the heart rate now.
        if let hr = sample.heartRate {
            if sample.time >= latestBody.heartRate?.0 ?? -.infinity {
                latestBody.heartRate = (sample.time, hr)
            }
            maxHeartRate = max(maxHeartRate ?? hr, hr)
            zoneTime.add(heartRate: hr, at: sample.time)
        }
        if let cad = sample.cadence, sample.time >= latestBody.cadence?.0 ?? -.infinity {
            latestBody.cadence = (sample.time, cad)
        }
    }

    // MARK: Pause

    mutating func manualPause(at time: Double, _ out: inout [EngineOutput]) {
        odometer.discardPending()
        slips.reset()
        if let transition = pause.manualPause(at: time) {
            apply([transition], at: time, &out)
        }
    }

    mutating func manualResume(at time: Double, _ out: inout [EngineOutput]) {
        slips.reset()
        vehicle.reset()
        if let transition = pause.manualResume(at: time) {
            apply([transition], at: time, &out)
        }
    }

    mutating func apply(
        _ transitions: [PauseDetector.Transition], at time: Double, _ out: inout [EngineOutput]
    ) {
        for transition in transitions {
            switch transition {
            case .paused(let reason, _):
                let callout: Callout = reason == .signalLost ? .signalLost : .pause(reason)
                out.append(.callout(TimedCallout(callout, at: time)))
                silenceBandAlerts(at: time, &out)
            case .resumed:
                out.append(.callout(TimedCallout(.resume, at: time)))
            }
        }
    }

    // MARK: Mission

    mutating func updateMission(at time: Double, _ out: inout [EngineOutput]) {
        updateWorkout(at: time, &out)
        guard mission != nil || workout != nil else { return }
        if let mission, let progress = goalProgress(at: time), !missionComplete,
            progress >= (mission.targetDistance ?? mission.targetDuration ?? .infinity)
        {
            // The goal reached: band alerts stop for good, and the flight goes on as a free
            // flight until END.
            missionComplete = true
            silenceBandAlerts(at: time, &out)
            paceAlerts = nil
            heartRateAlerts = nil
            out.append(.callout(TimedCallout(.missionComplete, at: time)))
        }
        let changed = smoother.reseeds != reseedsJudged
        reseedsJudged = smoother.reseeds
        if !pause.isPaused {
            // Heart rate first: a pace callout that begins at the same time is then held back.
            let heartRate = latest(latestBody.heartRate, at: time)
            let movingTime = pause.movingTime(at: time)
            let stepMoving = stepMovingTime(movingTime)
            if let changes = heartRateAlerts?.update(heartRate: heartRate, movingTime: stepMoving, at: time) {
                recordAlertChanges(changes, at: time, &out)
            }
            if let changes = paceAlerts?.update(speed: smoother.speed, at: time, changed: changed) {
                recordAlertChanges(changes, at: time, &out)
            }
        }
        if let progress = goalProgress(at: time), minimums?.shouldSound(progress) == true {
            out.append(.callout(TimedCallout(.minimums, at: time)))
        }
        phase = isInApproach(at: time) ? .approach : .cruise
    }

    /// Ends every band alert's episode at once (a pause, MISSION COMPLETE, touchdown).
    mutating func silenceBandAlerts(at time: Double, _ out: inout [EngineOutput]) {
        recordAlertChanges(heartRateAlerts?.silence(at: time) ?? [], at: time, &out)
        recordAlertChanges(paceAlerts?.silence(at: time) ?? [], at: time, &out)
    }

    /// Logs each change as an episode and says it. **Precedence:** both bands' episodes are
    /// always logged, but while an HR HIGH or HR LOW episode is open a pace callout is not said:
    /// heart rate is the runner's limit, and SINK RATE ("faster") over HR HIGH ("easier") would
    /// tell them two opposite things. The PFD shows the heart-rate state likewise.
    mutating func recordAlertChanges(_ changes: [GPWSChange], at time: Double, _ out: inout [EngineOutput]) {
        for change in changes {
            switch change {
            case .began(let kind, let start):
                alerts.append(AlertEpisode(kind: kind, startElapsed: start - rotateAt, coordinate: position))
                say(kind, at: time, &out)
            case .ended(let kind, let end):
                if let open = alerts.lastIndex(where: { $0.kind == kind && $0.endElapsed == nil }) {
                    alerts[open].endElapsed = max(alerts[open].startElapsed, end - rotateAt)
                }
            case .repeated(let kind, _):
                say(kind, at: time, &out)
            }
        }
    }

    private func say(_ kind: GPWSAlert, at time: Double, _ out: inout [EngineOutput]) {
        let callout: Callout
        switch kind {
        case .sinkRate, .overspeed:
            if case .alerting = heartRateAlerts?.state { return }
            callout = kind == .sinkRate ? .sinkRate : .overspeed
        case .heartRateHigh: callout = .heartRateHigh
        case .heartRateLow: callout = .heartRateLow
        case .minimums: callout = .minimums
        }
        out.append(.callout(TimedCallout(callout, at: time)))
    }

    // MARK: Touchdown

    mutating func land(at time: Double, _ out: inout [EngineOutput]) -> Flight {
        // The last few metres ran inside the 5 m anchor and were never counted: spend them.
        if profile == nil, let anchor = movement.anchor, let last = lastHeld, last.time > anchor.time,
            pause.pauseReason != .manual
        {
            odometer.count(chord: Geodesy.distance(anchor.coordinate, last.coordinate))
        }
        silenceBandAlerts(at: time, &out)
        recordSamples(clock.marks(through: time - rotateAt))
        // Landed at an earlier moment (a forgotten stop's last movement): what came after it is
        // not the flight's.
        samples.removeAll { $0.elapsed > time - rotateAt }
        route.removeAll { $0.elapsed > time - rotateAt }
        pause.finish(at: time)
        let (finalSplits, dropped) = splits.finish(progress(at: time))
        let fullRoute = Route(points: profile?.route ?? route)
        var flight = Flight(
            mission: mission, startTime: rotateAt, endTime: time, distance: distance(at: time),
            elapsed: time - rotateAt, movingTime: pause.movingTime(at: time), splits: finalSplits,
            droppedTail: dropped, samples: samples, route: fullRoute, simplifiedRoute: fullRoute.simplified(),
            alerts: alerts, averageHeartRate: heartRate.mean, averageCadence: cadence.mean,
            pauses: pause.pauses.map {
                PauseInterval(start: $0.start - rotateAt, end: $0.end - rotateAt, reason: $0.reason)
            },
            elevation: elevationSource.map {
                FlightElevation(
                    source: $0, loss: elevation.loss, minimum: elevation.minimum, maximum: elevation.maximum)
            })
        flight.maxHeartRate = maxHeartRate
        // A free run's laps (pressed) have a tracker of no steps: the flight has no workout.
        flight.workout = workout.flatMap { $0.workout.steps.isEmpty ? nil : $0.workout }
        flight.laps = workout?.finish(at: progress(at: time)) ?? []
        // Landed at a forgotten stop's last movement: its reminders came after it, and are kept.
        flight.decisions = decisions
        flight.runName = runName
        flight.heartRateZones = configuration.heartRateZones
        flight.timeInZone = zoneTime.seconds(through: time, moving: pause.movingSegments)
        return flight
    }
}
