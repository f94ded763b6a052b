/// Why a flight is paused.
public enum PauseReason: String, Sendable, Equatable {
    /// No counted movement for `autoPauseAfter` seconds.
    case stopped
    /// No fix for `signalLostAfter` seconds.
    case signalLost = "signal lost"
    /// The pause button.
    case manual
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
/// through (the first step back implies ≥ `walkingSpeed`) is taken back: the gap was moving time.
public struct PauseDetector: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var autoPauseAfter: Double = 8
        public var signalLostAfter: Double = 8
        /// A reported speed at or above this is evidence of movement.
        public var movingSpeed: Double = 0.5
        /// A step across a signal gap this fast or faster means the runner kept going.
        public var walkingSpeed: Double = 1.0

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
    /// runner travelled; `step` is the distance it travelled.
    public mutating func observeFix(time: Double, speed: Double?, moved: Bool, step: Double) -> [Transition] {
        var transitions = advance(to: time)
        let gapStart = lastFix
        if time > lastFix { fixInterval = min(time - lastFix, 2) }
        lastFix = time
        let fast = (speed ?? 0) >= configuration.movingSpeed
        if fast {
            movingSince = movingSince ?? time
        } else {
            movingSince = nil
        }
        if moved {
            lastCounted = time
        }
        if moved || (fast && !isPaused) {
            lastMovingEvidence = time
        }
        if moved, let reason = pauseReason, reason != .manual {
            var effective = min(time, movingSince ?? time) - fixInterval / 2
            if reason == .signalLost, time > gapStart,
                step / (time - gapStart) >= configuration.walkingSpeed
            {
                effective = pausedAt
            }
            transitions.append(resume(at: max(effective, pausedAt)))
        }
        return transitions
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

    public mutating func manualResume(at time: Double) -> Transition? {
        guard pauseReason != nil else { return nil }
        // Fresh grace periods: the runner has just asked to go on.
        lastCounted = time
        lastFix = max(lastFix, time)
        return resume(at: time)
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
        return .paused(reason, effective: end)
    }

    private mutating func closeSegment(at end: Double) {
        guard end > segmentStart else { return }
        closedMovingTime += end - segmentStart
        movingSegments.append(segmentStart...end)
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
