/// Which engine a saved flight's distance, splits and route come from.
public enum DistanceMethod: String, Sendable, Equatable {
    /// The touchdown smoother over the whole raw log (`FlightSmoothing`).
    case smoothed
    /// The causal engine the runner heard live.
    case live
}

/// Whether a finished flight goes into the logbook.
public enum FlightStatus: String, Sendable, Equatable {
    case recorded
    /// Under the minimum distance: "NOT RECORDED — TOO SHORT".
    case tooShort = "too short"
}

/// A finished flight, handed over whole by the engine at touchdown.
public struct Flight: Sendable, Equatable {
    /// A flight under this many metres is not saved.
    public static let minimumDistance = 100.0

    public var mission: Mission?
    /// GPS time of ROTATE, seconds since the Unix epoch.
    public var startTime: Double
    /// GPS time of TOUCHDOWN.
    public var endTime: Double
    public var distance: Double
    public var elapsed: Double
    public var movingTime: Double
    public var splits: [Split]
    /// Metres of a final partial split under 100 m that was not made a split.
    public var droppedTail: Double
    public var samples: [FDRSample]
    /// Every counted fix.
    public var route: Route
    /// The route after Douglas–Peucker, as stored.
    public var simplifiedRoute: Route
    public var alerts: [AlertEpisode]
    /// From all samples of the flight, not from split averages.
    public var averageHeartRate: Double?
    public var averageCadence: Double?
    /// Every pause, in flight-elapsed seconds (a pause still open at END ends at `elapsed`).
    public var pauses: [PauseInterval]
    /// Where the elevation came from, the descent and the range; nil: no altitude source at all,
    /// so every elevation figure of the flight is missing (SPEC: never 0).
    public var elevation: FlightElevation?
    /// The highest heart rate of the flight; nil without heart-rate readings.
    public var maxHeartRate: Double?
    /// The zones the flight was counted in (the configuration's at ROTATE).
    public var heartRateZones: HeartRateZones?
    /// Moving seconds in each of zones 1…5 (five numbers); nil without heart-rate readings.
    public var timeInZone: [Double]?
    /// Where `distance`, the splits and the route come from: the touchdown smoother, or the live
    /// engine (a flight stored before the smoother, or one it could not smooth: `smoothing`
    /// says why).
    public var distanceMethod: DistanceMethod = .live
    /// The live engine's distance, what the runner heard during the run (nil: not kept).
    public var liveDistance: Double?
    /// Why a flight kept the live engine's figures, when the smoother was tried and declined.
    public var smoothingNote: String?
    /// Who landed it: the runner (END), or a forgotten stop (`StandstillWatch`).
    public var landing: FlightLanding = .runner
    /// The workout flown (issue 27); nil for a free or mission flight.
    public var workout: Workout?
    /// One lap per workout step run, then one for the run after the last step; none without
    /// a workout. Their distances add up to `distance`.
    public var laps: [FlightLap] = []
    /// What the board decided for the runner, in time order (`FlightDecision`).
    public var decisions: [FlightDecision] = []
    /// The configured run the runner chose at the buttons or by name (`runs`), nil for none.
    public var runName: String?

    public init(
        mission: Mission?, startTime: Double, endTime: Double, distance: Double, elapsed: Double,
        movingTime: Double, splits: [Split], droppedTail: Double, samples: [FDRSample], route: Route,
        simplifiedRoute: Route, alerts: [AlertEpisode], averageHeartRate: Double?, averageCadence: Double?,
        pauses: [PauseInterval] = [], elevation: FlightElevation? = nil
    ) {
        self.mission = mission
        self.startTime = startTime
        self.endTime = endTime
        self.distance = distance
        self.elapsed = elapsed
        self.movingTime = movingTime
        self.splits = splits
        self.droppedTail = droppedTail
        self.samples = samples
        self.route = route
        self.simplifiedRoute = simplifiedRoute
        self.alerts = alerts
        self.averageHeartRate = averageHeartRate
        self.averageCadence = averageCadence
        self.pauses = pauses
        self.elevation = elevation
    }

    public var status: FlightStatus { distance < Self.minimumDistance ? .tooShort : .recorded }

    /// Σ split gains: the one total, so there is no second copy to drift out of sync.
    public var elevationGain: Double { splits.reduce(0) { $0 + $1.elevationGain } }

    /// The gain as a runner is shown it: nil when the flight had no altitude source.
    public var knownElevationGain: Double? { elevation == nil ? nil : elevationGain }

    /// Seconds per kilometre over the moving time.
    public var averagePace: Double? { Pace.secondsPerKilometre(duration: movingTime, distance: distance) }

    /// SINK RATE and OVERSPEED episodes, as the details count them.
    public var paceAlertCount: Int { alerts.filter { $0.kind == .sinkRate || $0.kind == .overspeed }.count }

    /// HR HIGH and HR LOW episodes.
    public var heartRateAlertCount: Int {
        alerts.filter { $0.kind == .heartRateHigh || $0.kind == .heartRateLow }.count
    }

    /// Indices of the fastest and slowest split by pace; only with ≥ 2 splits.
    public var paceExtremes: (fastest: Int, slowest: Int)? {
        Self.extremes(splits.map { $0.pace }, lowerIsHigher: true)
    }

    /// Indices of the highest and lowest split heart rate; only with ≥ 2 splits and values.
    public var heartRateExtremes: (highest: Int, lowest: Int)? {
        Self.extremes(splits.map { $0.heartRate }, lowerIsHigher: false).map { ($0.0, $0.1) }
    }

    /// Indices of the highest and lowest split cadence; only with ≥ 2 splits and values.
    public var cadenceExtremes: (highest: Int, lowest: Int)? {
        Self.extremes(splits.map { $0.cadence }, lowerIsHigher: false).map { ($0.0, $0.1) }
    }

    /// (best, worst) among the values that exist; best is the lowest when `lowerIsHigher`.
    static func extremes(_ values: [Double?], lowerIsHigher: Bool) -> (Int, Int)? {
        guard values.count >= 2 else { return nil }
        let present = values.indices.compactMap { i in values[i].map { (i, $0) } }
        guard present.count >= 2,
            let low = present.min(by: { $0.1 < $1.1 }),
            let high = present.max(by: { $0.1 < $1.1 })
        else { return nil }
        return lowerIsHigher ? (low.0, high.0) : (high.0, low.0)
    }
}

/// A flight's elevation beyond its gain: the source, the descent, the lowest and highest point
/// (metres relative to the start).
public struct FlightElevation: Sendable, Equatable {
    public var source: ElevationSource
    /// Metres descended; nil for a flight stored before descents were counted.
    public var loss: Double?
    public var minimum: Double?
    public var maximum: Double?

    public init(source: ElevationSource, loss: Double?, minimum: Double?, maximum: Double?) {
        self.source = source
        self.loss = loss
        self.minimum = minimum
        self.maximum = maximum
    }
}

/// Who landed a flight.
public enum FlightLanding: String, Sendable, Equatable {
    /// END: the button held, `runway stop`.
    case runner
    /// A standstill longer than the configured limit: landed at the last movement.
    case standstill
}
