/// A car or a bus is not running (issue 27: run, drive, park gave 10.19 km at 0:59 /km; a bus at
/// 36 km/h counted as 2:33 /km). A pure rule over each fix's Doppler speed and, with a footpod,
/// the cadence: speed beyond any runner's held for `confirmAfter` seconds — or, with a footpod,
/// a runner's speed with no steps — is a vehicle from when it began; the flight pauses (reason
/// VEHICLE) and resumes once running is back for `runningFor` seconds.
///
/// The numbers against real running: the men's 1500 m world record is 3:26 (7.3 m/s) and no
/// runner holds that for ten seconds in a run this board records; a 2:50 /km sprint finish is
/// 5.9 m/s and must count, so the line is 7.5 m/s (2:13 /km). A footpod reading under 60 steps a
/// minute at 3 m/s or more is no one running (a runner's cadence is 150–190).
public struct VehicleWatch: Sendable, Equatable {
    public struct Configuration: Sendable, Equatable {
        public var vehicleSpeed = 7.5
        public var confirmAfter = 10.0
        /// With a footpod: at this speed or more, fewer steps a minute than `steplessCadence`
        /// is riding.
        public var steplessSpeed = 3.0
        public var steplessCadence = 60.0
        /// Running again: speeds between `SlipWatch`'s running speed and the vehicle speed (and,
        /// with a footpod, a running cadence) for this long.
        public var runningFor = 15.0
        public var runningSpeed = 2.0
        public var runningCadence = 140.0
        /// A reading that breaks a streak only when the break lasts this long.
        public var tolerance = 3.0

        public init() {}
    }

    public enum Decision: Sendable, Equatable {
        /// A vehicle since `since`: pause from there (the distance counted since is not run).
        case vehicle(since: Double)
        /// Running again since `since`: resume from there, crediting the `metres` run since
        /// (the receiver's speeds: nothing was counted while riding).
        case running(since: Double, metres: Double)
    }

    public let configuration: Configuration
    /// In a vehicle now (paused for it).
    public private(set) var riding = false
    /// When the current streak (riding while counting, running while riding) began.
    public private(set) var streakSince: Double?
    private var lastInStreak = -Double.infinity
    private var lastTime: Double?
    private var metres = 0.0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    func isRiding(speed: Double?, cadence: Double?) -> Bool {
        guard let speed else { return false }
        if speed >= configuration.vehicleSpeed { return true }
        if let cadence, speed >= configuration.steplessSpeed, cadence < configuration.steplessCadence {
            return true
        }
        return false
    }

    func isRunning(speed: Double?, cadence: Double?) -> Bool {
        guard let speed, speed >= configuration.runningSpeed, speed < configuration.vehicleSpeed else {
            return false
        }
        return cadence.map { $0 >= configuration.runningCadence } ?? true
    }

    /// One fix's Doppler speed (nil without one) and the footpod's cadence now (nil without one).
    public mutating func observe(time: Double, speed: Double?, cadence: Double?) -> Decision? {
        let previous = lastTime
        lastTime = time
        let inStreak =
            riding ? isRunning(speed: speed, cadence: cadence) : isRiding(speed: speed, cadence: cadence)
        // While riding, a reading beyond a runner's ends a running streak at once.
        if riding, isRiding(speed: speed, cadence: cadence) {
            streakSince = nil
            return nil
        }
        guard inStreak else {
            if streakSince != nil, time - lastInStreak > configuration.tolerance { streakSince = nil }
            return nil
        }
        if streakSince != nil, let previous, time > previous {
            metres += (speed ?? 0) * min(time - previous, configuration.tolerance)
        } else if streakSince == nil {
            metres = 0
        }
        let since = streakSince ?? time
        streakSince = since
        lastInStreak = time
        let needed = riding ? configuration.runningFor : configuration.confirmAfter
        guard time - since >= needed else { return nil }
        streakSince = nil
        riding.toggle()
        return riding ? .vehicle(since: since) : .running(since: since, metres: metres)
    }

    /// The flight was resumed or paused by the runner: no vehicle now.
    public mutating func reset() {
        riding = false
        streakSince = nil
    }
}
