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
    /// The fixes' estimate of what the odometer's sum of speeds has drifted, amended as it goes.
    var drift: LiveDriftCorrection
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
    /// Every counted fix and every FDR sample, held compact until touchdown (`InFlightRecords`).
    var route = InFlightRoute()
    var samples = InFlightSamples()
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
    /// The last few accepted fixes: where they put the ends of a step across a silence.
    var recentFixes = RecentFixes()
    /// The last step across a silence, until the fixes after it have said where it ended.
    var silenceExit: (entry: Coordinate, exit: Fix)?
    /// False from a barometer loss until pressure samples return: altitude reads as missing.
    var barometerAvailable = true
    /// A landed flight flown again after the touchdown smoother: its distance at every moment
    /// comes from the smoothed track instead of the odometer (`FlightSmoothing`).
    var profile: DistanceProfile?
    /// Set when the flight is flown again at touchdown: the barometer's altitude the gain counts.
    var smoothedAltitude: SmoothedAltitude?
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
        drift = LiveDriftCorrection(configuration: configuration.liveDrift)
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

    // MARK: Pause

    mutating func manualPause(at time: Double, _ out: inout [EngineOutput]) {
        odometer.discardPending()
        drift.forgetPosition()
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
        samples.removeAll(after: time - rotateAt)
        route.removeAll(after: time - rotateAt)
        pause.finish(at: time)
        let (finalSplits, dropped) = splits.finish(progress(at: time))
        let fullRoute = Route(points: profile?.route ?? route.decoded)
        var flight = Flight(
            mission: mission, startTime: rotateAt, endTime: time, distance: distance(at: time),
            elapsed: time - rotateAt, movingTime: pause.movingTime(at: time), splits: finalSplits,
            droppedTail: dropped, samples: samples.decoded, route: fullRoute,
            simplifiedRoute: fullRoute.simplified(),
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
