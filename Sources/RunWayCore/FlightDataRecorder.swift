/// One Flight Data Recorder sample (seed 001): the instruments every 5 s of elapsed time.
/// No position: it is interpolated from the route, which Douglas–Peucker keeps within tolerance.
public struct FDRSample: Sendable, Equatable {
    public var elapsed: Double
    public var distance: Double
    public var pace: Double?
    public var heartRate: Double?
    public var cadence: Double?
    /// Relative altitude; 0 is a value.
    public var altitude: Double?
    public var heading: Double?
    public var paused: Bool

    public init(
        elapsed: Double, distance: Double, pace: Double?, heartRate: Double?, cadence: Double?,
        altitude: Double?, heading: Double?, paused: Bool
    ) {
        self.elapsed = elapsed
        self.distance = distance
        self.pace = pace
        self.heartRate = heartRate
        self.cadence = cadence
        self.altitude = altitude
        self.heading = heading
        self.paused = paused
    }
}

/// The sample clock: a mark every `interval` seconds of elapsed time, paused or not, so the
/// lanes of a rewound flight share one time axis (10 km ≈ 720 samples).
public struct FDRClock: Sendable, Equatable {
    public let interval: Double
    public private(set) var nextMark: Double = 0

    public init(interval: Double = 5) {
        self.interval = interval
    }

    /// The marks strictly before `elapsed`, each once, in order. The engine takes them before it
    /// applies an input at `elapsed`, so a sample holds every input up to and at its mark.
    public mutating func marks(before elapsed: Double) -> [Double] {
        var due: [Double] = []
        while nextMark < elapsed {
            if due.count == Self.maximumMarksPerStep {
                // Longer than a day in one step is a hole in the lanes, not a day of samples: a
                // corrupt time cannot allocate without bound (nor loop where +5 no longer adds).
                nextMark = (elapsed / interval).rounded(.up) * interval
                break
            }
            due.append(nextMark)
            nextMark += interval
        }
        return due
    }

    /// Marks one step may add: a day's (17 280 at 5 s). Live, a step is a second.
    public static let maximumMarksPerStep = 17_280

    /// The marks up to and including `elapsed` (touchdown).
    public mutating func marks(through elapsed: Double) -> [Double] {
        var due = marks(before: elapsed)
        if nextMark == elapsed {
            due.append(nextMark)
            nextMark += interval
        }
        return due
    }
}
