/// Running while the flight is manually paused (issue 27: one bump on PAUSE lost the rest of a
/// run — the distance stayed at 1.03 km for 15 minutes of running). A pure rule over the fixes
/// and the footpod's cadence while manually paused: after `remindAfter` seconds of clearly
/// running it reminds the runner, again every `remindEvery` while the running goes on, and, when
/// the runner turned it on, resumes the flight by itself after `autoResumeAfter`, from when the
/// running began and with the metres run since.
public struct SlipWatch: Sendable, Equatable {
    public struct Configuration: Sendable, Equatable {
        /// Doppler speed that is clearly running, not walking: a brisk walk reaches ~1.9 m/s, the
        /// slowest jog the bench flies is 1.8 m/s, so 2.0 m/s (8:20 /km) leaves walking alone.
        public var runningSpeed = 2.0
        /// With a footpod: steps a minute that are running (walking is 100–125, running 150–190).
        public var runningCadence = 140.0
        /// Faster than this is no runner (`VehicleWatch` decides what it is).
        public var maximumSpeed = 7.0
        /// A reading that is not running ends the streak only after this long (one slow reading
        /// at a crossing is not the runner stopping).
        public var tolerance = 4.0
        /// Seconds of running before the first reminder, and between reminders after it.
        public var remindAfter = 15.0
        public var remindEvery = 120.0
        /// Seconds of running after which the flight resumes by itself; nil: never (the default:
        /// a runner who paused on purpose is reminded, not overruled).
        public var autoResumeAfter: Double?

        public init() {}
    }

    public enum Decision: Sendable, Equatable {
        /// Remind the runner: running for `runningFor` seconds while paused (the `count`th time).
        case remind(runningFor: Double, count: Int)
        /// Resume the flight from `runningSince`, crediting the `metres` run since.
        case resume(runningSince: Double, metres: Double)
    }

    public let configuration: Configuration
    /// When the current running streak began, and its last running reading.
    public private(set) var runningSince: Double?
    private var lastRunning: Double = -.infinity
    private var lastTime: Double?
    private var metres = 0.0
    private var reminders = 0
    private var lastReminder: Double?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Whether a reading is clearly running.
    public func isRunning(speed: Double?, cadence: Double?) -> Bool {
        guard let speed, speed >= configuration.runningSpeed, speed <= configuration.maximumSpeed else {
            return false
        }
        return cadence.map { $0 >= configuration.runningCadence } ?? true
    }

    /// One fix's speed (the receiver's Doppler; nil without one) and the footpod's cadence now
    /// (nil without a footpod) while manually paused.
    public mutating func observe(time: Double, speed: Double?, cadence: Double?) -> Decision? {
        defer { lastTime = time }
        guard isRunning(speed: speed, cadence: cadence) else {
            if runningSince != nil, time - lastRunning > configuration.tolerance { reset() }
            return nil
        }
        if runningSince != nil, let last = lastTime, time > last {
            metres += (speed ?? 0) * min(time - last, configuration.tolerance)
        } else if runningSince == nil {
            runningSince = time
            metres = 0
        }
        lastRunning = time
        guard let since = runningSince else { return nil }
        let running = time - since
        if let after = configuration.autoResumeAfter, running >= after {
            let decision = Decision.resume(runningSince: since, metres: metres)
            reset()
            return decision
        }
        let due =
            lastReminder.map { time - $0 >= configuration.remindEvery }
            ?? (running >= configuration.remindAfter)
        guard due else { return nil }
        reminders += 1
        lastReminder = time
        return .remind(runningFor: running, count: reminders)
    }

    /// The pause ended (or began again): a new watch.
    public mutating func reset() {
        runningSince = nil
        lastRunning = -.infinity
        metres = 0
        lastReminder = nil
    }
}
