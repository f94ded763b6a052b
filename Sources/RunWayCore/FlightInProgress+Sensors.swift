/// A flight in progress hears its sensors: fixes (the movement filter, the odometer, the pause
/// detector, the route), the barometer and the body's sensors.
extension FlightInProgress {
    // MARK: Sensors

    mutating func add(_ reported: Fix, _ out: inout [EngineOutput]) {
        // A speed no runner reaches is a receiver glitch (a Doppler spike), not a pace: it is
        // treated as unknown everywhere, so pace and OVERSPEED come from positions instead.
        var fix = reported
        let reportedSpeed = reported.speed
        if let speed = fix.speed, speed > configuration.movement.maxSpeed { fix.speed = nil }
        let previousAnchor = movement.anchor
        let verdict = movement.assess(fix)
        guard let (chord, fallbackSpeed) = measure(verdict, of: fix, from: previousAnchor, &out) else {
            return
        }
        integrateReading(of: fix)
        watchRunner(at: fix.time, speed: reportedSpeed, &out)
        if let height = fix.altitude, fix.time >= rotateAt,
            let relative = gpsAltitude.add(time: fix.time, altitude: height)
        {
            gpsGain.add(time: fix.time, altitude: relative)
        }
        let manuallyPaused = pause.pauseReason == .manual || pause.pauseReason == .vehicle
        // How far the heading turned over the counted step (degrees): from the anchor's track,
        // else the last fix's heading, to this fix's. Fixes held inside the anchor's radius in
        // between do not count: a silence's exit 40 m off put the first fixes back next to the
        // anchor, and a hairpin measured from them turned 2°, not 179° ("outages on a hairpin",
        // seed 91: the live distance 184 m short after it).
        let turn = fix.track.flatMap { track in
            (previousAnchor?.track ?? heading).map { Geodesy.turn(from: $0, to: track) }
        }
        // How much longer than the step a street grid's staircase could be, from the step's
        // direction against the headings it began and ended on.
        let staircase = previousAnchor.flatMap { anchor in
            GapJudgement.staircase(
                bearing: Geodesy.bearing(from: anchor.coordinate, to: fix.coordinate),
                entry: anchor.track ?? heading, exit: fix.track)
        }
        var increment = 0.0
        if case .counted = verdict {
            if manuallyPaused {
                odometer.discardPending()
                drift.forgetPosition()
            } else {
                increment = countStep(
                    to: fix, from: previousAnchor, chord: chord, turn: turn, staircase: staircase)
            }
        }
        // "When gpsd gives no speed, use distance/time" — and when its speed is not believed.
        let reported = odometer.speedIsTrusted ? fix.speed : nil
        let speed = reported ?? fallbackSpeed
        // A step while the receiver's own speed says "standing" is wander spending the last
        // braking metres, not the runner setting off again.
        let moved = increment >= 1 && (reported.map { $0 >= configuration.pause.movingSpeed } ?? true)
        // Flown again on the smoothed track, a step (one across a signal gap is the one the
        // pause rule weighs) is as long as that track between its ends: both ends placed by
        // the fixes either side, not by one fix each ("stop in an outage": the gaps' bridges
        // σ 2.6 m about the truth's path, the live step's 3.3).
        let step = profile.flatMap { track in
            previousAnchor.map { track.distance(at: fix.time) - track.distance(at: $0.time) }
        }
        apply(
            pause.observeFix(
                time: fix.time, speed: speed, moved: increment >= 1, step: step ?? increment,
                speedIsDoppler: reported != nil, turn: turn, staircase: staircase,
                stepFrom: previousAnchor?.time),
            at: fix.time, &out)
        position = fix.coordinate
        if let track = fix.track {
            heading = track
        } else if case .counted = verdict, let anchor = previousAnchor {
            heading = Geodesy.bearing(from: anchor.coordinate, to: fix.coordinate)
        }
        if verdict.isAccepted {
            recentFixes.add(fix)
            remeasureSilenceExit()
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

    /// A fix's speed and track, as the odometer integrates them (not shown while the button or a
    /// vehicle pauses the flight) and as the live drift filter reads them (not read then).
    private mutating func integrateReading(of fix: Fix) {
        odometer.hidesPending = pause.pauseReason == .manual || pause.pauseReason == .vehicle
        odometer.integrate(time: fix.time, speed: fix.speed, track: fix.track)
        if !odometer.hidesPending { drift.reading(time: fix.time, speed: fix.speed, track: fix.track) }
    }

    /// A counted fix's step: the odometer's metres for it (across a silence by the crossing
    /// rules), amended by the fixes' estimate of the speeds' drift (`LiveDriftCorrection`).
    private mutating func countStep(
        to fix: Fix, from previousAnchor: Fix?, chord: Double, turn: Double?, staircase: Double?
    ) -> Double {
        let duration = previousAnchor.map { fix.time - $0.time } ?? .infinity
        let crossing = silenceCrossing(to: fix, from: previousAnchor)
        // Only a step the speeds measured (no silence in it, speed trusted before and after)
        // lies along the reckoned route.
        let bySpeeds = !odometer.spansSilence && odometer.speedIsTrusted
        let increment = odometer.count(
            chord: crossing?.chord ?? chord, duration: duration, from: previousAnchor?.coordinate,
            to: fix.coordinate, turn: turn, staircase: staircase)
        if let crossing { silenceExit = (crossing.entry, fix) }
        if !bySpeeds || !odometer.speedIsTrusted { drift.forgetPosition() }
        odometer.amend(
            by: drift.step(
                time: fix.time, credited: increment, coordinate: fix.coordinate, eph: fix.horizontalAccuracy))
        return increment
    }

    /// What a fix's verdict counts: the chord stepped and the speed the positions imply; nil
    /// when its position does not count (its speed may still say whether the runner moves).
    private mutating func measure(
        _ verdict: MovementFilter.Verdict, of fix: Fix, from previousAnchor: Fix?, _ out: inout [EngineOutput]
    ) -> (chord: Double, fallbackSpeed: Double?)? {
        var chord = 0.0
        var fallbackSpeed: Double?
        switch verdict {
        case .rejected(.poorAccuracy):
            // The receiver is there, its position too rough to count (tree cover reads 30–60 m):
            // no signal loss, and its speed still says whether the runner is moving (Doppler
            // does not share the position's error). Without this, 8 s of rough fixes paused a
            // runner under trees as "signal lost" (tree cover: up to 57 s).
            observeSpeedOnly(fix, &out)
            return nil
        case .rejected(.impossibleJump):
            // The position jumped, not the runner: the receiver's speed (Doppler) does not share
            // the position's error, so it goes on integrating and says whether the runner moves.
            // Without this, a cold start's fixes snapping 200–500 m away were 30 s of silence:
            // the distance shown froze and a signal-loss pause began. (helper-4's rule, wt/gate.)
            integrateReading(of: fix)
            observeSpeedOnly(fix, &out)
            return nil
        case .rejected:
            return nil
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
        return (chord, fallbackSpeed)
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
        // Flown again at touchdown, the saved flight counts the smoothed barometer.
        gain.add(time: sample.time, altitude: smoothedAltitude?.altitude(at: sample.time) ?? value)
    }

    mutating func add(_ sample: BodySample) {
        guard sample.time >= rotateAt else { return }
        odometer.footpod(sample)
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
}
