/// Why a flight is paused.
public enum PauseReason: String, Sendable, Equatable {
    /// No counted movement for `autoPauseAfter` seconds.
    case stopped
    /// No fix for `signalLostAfter` seconds.
    case signalLost = "signal lost"
    /// The pause button.
    case manual
    /// A vehicle's speed (`VehicleWatch`): riding is not running.
    case vehicle

    /// The name scripts read in a flight's JSON `pauses` (issue 27): auto, manual, vehicle, signal.
    public var jsonName: String {
        switch self {
        case .stopped: "auto"
        case .signalLost: "signal"
        case .manual: "manual"
        case .vehicle: "vehicle"
        }
    }
}

/// One pause of a flight: from `start` to `end`, in the clock the detector was given (GPS time in
/// the engine; flight-elapsed seconds in a `Flight`).
public struct PauseInterval: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var reason: PauseReason

    public init(start: Double, end: Double, reason: PauseReason) {
        self.start = start
        self.end = end
        self.reason = reason
    }

    public var duration: Double { end - start }
}

/// Auto-pause, signal-loss pause and manual pause, and the moving time they leave
/// (SPEC "Distance, speed, pace, pause"; seed 000).
///
/// The seed paused after 5 s without movement and paused walkers, whose 5 m steps take
/// 3.5–4 s; 8 s leaves room for them. Even so, GPS wander of a couple of metres can hold a walker
/// inside the 5 m anchor for 8 s, so **beyond the seed** a fix whose Doppler speed says moving
/// also counts as movement for auto-pause (a receiver without speed falls back to counted steps
/// alone). Also beyond the seed: a pause is only *detected* 8 s after
/// the runner stopped, so the moving time is backdated to the last evidence of movement (a counted
/// fix or a fix whose reported speed says moving), and a resume is backdated to the first fix of
/// the current moving streak. A signal-loss pause whose gap the runner evidently kept running
/// through (the first step back implies ≥ `walkingSpeed`) is taken back as far as the evidence
/// goes (issue 26): the step across it at the speed around it (the receiver's speed before and
/// after), with the stop's braking and getting going (`stopCost`), is the gap's moving time,
/// split between its two ends, and the rest is the stop inside it (a stop of 45 s inside a 75 s
/// outage had counted as moving: 37 s a stop).
public struct PauseDetector: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var autoPauseAfter: Double = 8
        public var signalLostAfter: Double = 8
        /// A reported speed at or above this is evidence of movement.
        public var movingSpeed: Double = 0.5
        /// A step across a signal gap this fast or faster means the runner kept going.
        public var walkingSpeed: Double = 1.0
        /// The receiver's speed is evidence of movement once it has read `movingSpeed` or more
        /// for this long without a break (beyond the seed; issue 26). At rest a receiver's speed
        /// is noise rectified at 0 — σ ≈ 0.3 m/s under trees, so one reading in twenty reads
        /// 0.5 m/s at a standstill — and one such reading beside a 5 m wander step resumed the
        /// flight: tree cover cost 25 s of moving time per stop (worst 71 s, `runway-bench
        /// conditions`). Three readings running at 1 Hz almost never do (~1 in 10 000); a stop
        /// still ends the evidence at its first slow reading, and a resume is backdated to the
        /// streak's first reading, so the wait costs no moving time.
        public var steadyAfter: Double = 2
        /// How hard a runner pulls up and gets going again (m/s²) around a stop no fix saw
        /// (`stopCost`): pulling up from a run in about a second and a half and taking two to
        /// be back at pace is what a runner at a crossing does (the simulator's runners brake
        /// and accelerate at these rates too).
        public var pullingUp: Double = 2
        public var gettingGoing: Double = 1.5
        /// A reading at a signal gap's edge under this share of the running speed before it (the
        /// median of the last readings: their mean takes in the braking) says the stop was at
        /// that edge: a braking one as the signal went, a getting-going one (~1 m/s) as it came
        /// back (`Odometer.Configuration.edgeShare`, the same judgement).
        public var edgeShare = 0.6

        public init() {}
    }

    public enum Transition: Sendable, Equatable {
        case paused(PauseReason, effective: Double)
        case resumed(effective: Double)
    }

    public let configuration: Configuration
    public private(set) var pauseReason: PauseReason?
    /// The pauses that have ended, in order, each with the reason it began with (a pause taken
    /// back is not one); the open one is added by `finish`. Exporters turn them into timer events.
    public private(set) var pauses: [PauseInterval] = []
    /// The closed stretches of moving time (absolute times), in order: their lengths sum to the
    /// closed moving time. Time in each heart-rate zone is counted over these.
    public private(set) var movingSegments: [ClosedRange<Double>] = []
    private var pausedAt: Double = 0
    private var pauseBeganAs: PauseReason = .manual
    private var lastCounted: Double = 0
    private var lastFix: Double = 0
    private var lastMovingEvidence: Double = 0
    private var movingSince: Double?
    /// The last reading that said moving.
    private var lastFast: Double = 0
    /// The first of the receiver's readings in a row that say standing (nil: the last did not).
    private var slowSince: Double?
    /// The receiver's speed at the last fixes that said moving while not paused (their mean):
    /// with the speed after a signal gap, how fast the runner went through it.
    private var speedBeforeGap: Double?
    /// The running readings just before (up to `DistanceProfile.Builder.heldSpeedSamples`):
    /// `speedBeforeGap` is their mean, not one reading's ±0.1 m/s (±3 % of a gap's running).
    private var recentSpeeds: [Double] = []
    /// The receiver's speed at the last fix while not paused (nil: none given).
    private var lastSpeed: Double?
    /// The first counted step after a signal-loss pause began, or after a silence in an
    /// automatic pause; another silence before the flight resumes extends it to the step
    /// ending that one.
    private var gapCrossing: GapCrossing?

    private var segmentStart: Double = 0
    private var closedMovingTime: Double = 0
    /// Seconds between the last two fixes: movement began or ended somewhere inside such an
    /// interval, so backdated edges move by half of it (capped at 1 s).
    private var fixInterval: Double = 1

    public init(configuration: Configuration = Configuration(), startedAt: Double) {
        self.configuration = configuration
        lastCounted = startedAt
        lastFix = startedAt
        lastMovingEvidence = startedAt
        segmentStart = startedAt
    }

    public var isPaused: Bool { pauseReason != nil }

    /// Moving time up to `now`.
    public func movingTime(at now: Double) -> Double {
        closedMovingTime + (isPaused ? 0 : max(0, now - segmentStart))
    }

    /// Feeds an accepted fix. `moved` is true when the fix was counted and the odometer says the
    /// runner travelled; `step` is the distance it travelled. With `speedIsDoppler` (`speed` is
    /// the receiver's own), a step counts as movement only while that speed has said moving for
    /// `steadyAfter` seconds: otherwise it is position wander (or the last braking metres).
    ///
    /// `turn` is how far the runner's heading turned since the fix before (degrees, 0…180) when
    /// known: round a corner a path can be longer than the step across a signal gap (a turn θ
    /// between two legs: path ≤ chord / cos(θ/2)), which tells a gap run round corners from one
    /// the runner stopped in. `staircase` is how much longer than the step a path through a
    /// street grid could be, from the step's direction against the headings at its ends
    /// (`GapJudgement.staircase`; nil: √2). `stepFrom` is when the step began (the fix it was measured from),
    /// when that is earlier than the last fix.
    public mutating func observeFix(
        time: Double, speed: Double?, moved stepped: Bool, step: Double, speedIsDoppler: Bool = false,
        turn: Double? = nil, staircase: Double? = nil, stepFrom: Double? = nil
    ) -> [Transition] {
        let previousFix = lastFix
        var transitions = advance(to: time)
        if time > lastFix { fixInterval = min(time - lastFix, 2) }
        lastFix = time
        let fast = (speed ?? 0) >= configuration.movingSpeed
        if fast {
            lastFast = time
            movingSince = movingSince ?? time
        } else {
            movingSince = nil
        }
        let steady = movingSince.map { time - $0 >= configuration.steadyAfter } ?? false
        let moved = stepped && (!speedIsDoppler || steady)
        if moved {
            lastCounted = time
        }
        if moved || (steady && !isPaused) {
            lastMovingEvidence = time
        }
        // The first step back after a signal gap: from the last position before it to here.
        // A step ending a silence in an automatic pause: the signal went after the runner stood
        // (the last reading before it a braking one, so the pause came first), and the step
        // back is what it ran at the silence's end.
        let endsSilence = time - previousFix >= configuration.signalLostAfter
        if stepped, pauseReason == .signalLost || (pauseReason == .stopped && endsSilence),
            gapCrossing == nil || endsSilence
        {
            // Round a corner the path is longer than the chord: at most chord / cos(θ/2), taken
            // up to a turn of 120° (×2); city outages on corners counted as stops without it.
            let bend = turn.map(GapJudgement.bend(turn:)) ?? 1
            let turnedBack = turn.map { $0 * .pi / 180 > RouteShape.largestArcTurn } ?? false
            let standing = speedIsDoppler && !fast && speed != nil
            let crossing = GapCrossing(
                time: time, since: min(stepFrom ?? previousFix, previousFix), step: step, bend: bend,
                staircase: staircase ?? 2.0.squareRoot(), turnedBack: turnedBack, speed: fast ? speed : nil,
                standing: standing)
            gapCrossing = gapCrossing.map { $0.continued(to: crossing) } ?? crossing
        } else if speedIsDoppler, let speed, let crossing = gapCrossing, time > crossing.time {
            gapCrossing?.fastestAfter = max(crossing.fastestAfter ?? speed, speed)
            if speed >= configuration.movingSpeed,
                crossing.readingsAfter.count + 1 < DistanceProfile.Builder.heldSpeedSamples
            {
                gapCrossing?.readingsAfter.append(speed)
            }
        }
        // The signal came back and the runner stands (two readings in a row say so, at the step
        // back or after it: one may be a receiver's glitch as it reacquires): the gap is settled
        // now, not at a resume that may be a minute off. A running reading after a standing
        // step back says that reading was the glitch.
        if time - previousFix >= configuration.signalLostAfter { slowSince = nil }
        if speedIsDoppler, speed != nil, !fast {
            slowSince = slowSince ?? time
        } else {
            slowSince = nil
            if fast { gapCrossing?.standing = false }
        }
        if pauseReason == .signalLost, let since = slowSince, since < time, let crossing = gapCrossing {
            transitions.append(settleGap(crossing, standingAt: time))
        }
        if moved, let reason = pauseReason, reason != .manual, reason != .vehicle {
            var effective = min(time, movingSince ?? time) - fixInterval / 2
            if let crossing = gapCrossing, crossing.time > pausedAt {
                effective =
                    reason == .signalLost
                    ? gapResume(crossing, otherwise: effective)
                    : judgement.resumeAfterStanding(crossing, otherwise: effective)
            }
            transitions.append(resume(at: max(effective, pausedAt)))
        }
        if !isPaused {
            lastSpeed = speed
            if fast, let speed {
                if recentSpeeds.count == DistanceProfile.Builder.heldSpeedSamples {
                    recentSpeeds.removeFirst()
                }
                recentSpeeds.append(speed)
                speedBeforeGap = recentSpeeds.reduce(0, +) / Double(recentSpeeds.count)
            } else {
                recentSpeeds.removeAll()
                speedBeforeGap = nil
            }
        }
        return transitions
    }

    /// Where the moving time resumes after a signal gap that `crossing` stepped across
    /// (`GapJudgement`): the running it finds at the gap's start is closed as moving time here.
    mutating func gapResume(_ crossing: GapCrossing, otherwise effective: Double) -> Double {
        let verdict = judgement.verdict(crossing, otherwise: effective)
        closeSegment(from: pausedAt, to: pausedAt + verdict.ranFirst)
        pausedAt += verdict.ranFirst
        return verdict.resume
    }

    /// The gap's judgement from the readings before it and the pause's start.
    private var judgement: GapJudgement {
        GapJudgement(
            configuration: configuration, pausedAt: pausedAt, before: speedBeforeGap,
            pace: recentSpeeds.upperMedian ?? speedBeforeGap, lastSpeed: lastSpeed, fixInterval: fixInterval)
    }

    /// The signal came back and then readings said standing before any moving evidence resumed
    /// the flight (from the step back itself, or after running out of the gap to a stop): the
    /// gap is judged as its crossing says (`gapResume`), the running after it until the last
    /// moving reading is moving time, and the pause goes on from there as a stop, the signal
    /// being back. Left to the resume, the gap's verdict was taken a minute late and every second
    /// stood in between was booked as running: a 16 s outage ending as a runner came to a 60 s
    /// light counted 71 s too many, one ending just before it 58 s (random short outages over
    /// "stops in urban wander").
    ///
    /// The transition says it: the pause goes on, now as a stop (the runner hears "you stopped"
    /// when the fixes came back, and "resume", not "GPS back", a minute later when it sets off).
    mutating func settleGap(_ crossing: GapCrossing, standingAt time: Double) -> Transition {
        let verdict = gapResume(crossing, otherwise: crossing.standing ? pausedAt : crossing.time)
        let resumed = max(verdict, pausedAt)
        if resumed > pausedAt {
            // The stop the verdict found inside the gap (or before its running): a pause of its
            // own, as a resume would have kept it.
            pauses.append(PauseInterval(start: pausedAt, end: resumed, reason: pauseBeganAs))
        }
        let stopped = min(time, max(resumed, lastFast + fixInterval / 2))
        closeSegment(from: resumed, to: stopped)
        pausedAt = stopped
        pauseReason = .stopped
        pauseBeganAs = .stopped
        gapCrossing = nil
        return .paused(.stopped, effective: stopped)
    }

    /// Lets time pass without a fix (a mode-1 report, a barometer sample, a clock tick).
    public mutating func advance(to now: Double) -> [Transition] {
        guard pauseReason == nil else { return [] }
        if now - lastFix >= configuration.signalLostAfter {
            return [pause(.signalLost, effective: lastFix)]
        }
        let lastMovement = max(lastCounted, lastMovingEvidence)
        if now - lastMovement >= configuration.autoPauseAfter {
            return [pause(.stopped, effective: lastMovement + fixInterval / 2)]
        }
        return []
    }

    public mutating func manualPause(at time: Double) -> Transition? {
        if let reason = pauseReason {
            guard reason != .manual else { return nil }
            pauseReason = .manual
            return nil
        }
        return pause(.manual, effective: time)
    }

    /// When the open pause began (nil while moving): the last movement, for `StandstillWatch`.
    public var pausedSince: Double? { isPaused ? pausedAt : nil }

    /// A vehicle since `since` (`VehicleWatch`): the moving time ends there. An auto-pause
    /// becomes the vehicle's; a manual pause stays the runner's.
    public mutating func vehiclePause(since: Double) -> Transition? {
        switch pauseReason {
        case .manual, .vehicle: return nil
        case .stopped, .signalLost:
            pauseReason = .vehicle
            pauseBeganAs = .vehicle
            return nil
        case nil: return pause(.vehicle, effective: since)
        }
    }

    /// Running again since `since` after a vehicle: the moving time resumes there.
    public mutating func vehicleResume(at since: Double) -> Transition? {
        guard pauseReason == .vehicle else { return nil }
        lastCounted = max(lastCounted, lastFix)
        lastMovingEvidence = max(lastMovingEvidence, lastFix)
        return resume(at: max(since, pausedAt))
    }

    public mutating func manualResume(at time: Double) -> Transition? {
        guard pauseReason != nil else { return nil }
        // Fresh grace periods: the runner has just asked to go on (or, resumed from when a slip's
        // running began, has been running since: the grace runs from the latest fix).
        lastFix = max(lastFix, time)
        lastCounted = lastFix
        lastMovingEvidence = max(lastMovingEvidence, lastFix)
        return resume(at: max(time, pausedAt))
    }

    /// Closes the moving time at touchdown. A runner who stopped and then pressed END was not
    /// moving while reaching for the button: when the last evidence of movement is more than
    /// `standingBeforeEnd` seconds old, the moving time ends there.
    public mutating func finish(at time: Double, standingBeforeEnd: Double = 2) {
        if pauseReason == nil {
            let lastMovement = max(lastCounted, lastMovingEvidence)
            let end = time - lastMovement > standingBeforeEnd ? lastMovement + fixInterval / 2 : time
            closeSegment(at: end)
            segmentStart = time
        }
        if pauseReason != nil, time > pausedAt {
            pauses.append(PauseInterval(start: pausedAt, end: time, reason: pauseBeganAs))
        }
        pauseReason = pauseReason ?? .manual
    }

    private mutating func pause(_ reason: PauseReason, effective: Double) -> Transition {
        let end = max(segmentStart, effective)
        closeSegment(at: end)
        pauseReason = reason
        pauseBeganAs = reason
        pausedAt = end
        movingSince = nil
        gapCrossing = nil
        return .paused(reason, effective: end)
    }

    private mutating func closeSegment(at end: Double) { closeSegment(from: segmentStart, to: end) }

    private mutating func closeSegment(from start: Double, to end: Double) {
        guard end > start else { return }
        closedMovingTime += end - start
        movingSegments.append(start...end)
    }

    private mutating func resume(at effective: Double) -> Transition {
        if effective > pausedAt {
            pauses.append(PauseInterval(start: pausedAt, end: effective, reason: pauseBeganAs))
        }
        pauseReason = nil
        segmentStart = effective
        return .resumed(effective: effective)
    }
}
