/// One kilometre of a flight, or the final partial one.
public struct Split: Sendable, Equatable {
    public var order: Int
    /// Metres: 1000 for a full split, the real distance for the final partial one.
    public var distance: Double
    /// Moving time spent on this split, seconds.
    public var movingDuration: Double
    /// Wall time spent on this split (pauses included), seconds.
    public var elapsedDuration: Double
    /// Flight elapsed time when this split closed.
    public var elapsedEnd: Double
    public var heartRate: Double?
    /// The highest heart rate on this split; nil without readings.
    public var maxHeartRate: Double?
    public var cadence: Double?
    /// Metres climbed on this split (never negative).
    public var elevationGain: Double

    public init(
        order: Int, distance: Double, movingDuration: Double, elapsedDuration: Double, elapsedEnd: Double,
        heartRate: Double?, cadence: Double?, elevationGain: Double
    ) {
        self.order = order
        self.distance = distance
        self.movingDuration = movingDuration
        self.elapsedDuration = elapsedDuration
        self.elapsedEnd = elapsedEnd
        self.heartRate = heartRate
        self.cadence = cadence
        self.elevationGain = elevationGain
    }

    /// Seconds per kilometre over the moving time.
    public var pace: Double? { Pace.secondsPerKilometre(duration: movingDuration, distance: distance) }
}

/// The progress of a flight at one counted fix, as the split tracker reads it.
public struct Progress: Sendable, Equatable {
    public var elapsed: Double
    public var distance: Double
    public var movingTime: Double
    public var elevationGain: Double

    public init(elapsed: Double, distance: Double, movingTime: Double, elevationGain: Double) {
        self.elapsed = elapsed
        self.distance = distance
        self.movingTime = movingTime
        self.elevationGain = elevationGain
    }

    /// Linear interpolation between two progress points.
    func interpolated(to other: Progress, fraction f: Double) -> Progress {
        Progress(
            elapsed: elapsed + (other.elapsed - elapsed) * f,
            distance: distance + (other.distance - distance) * f,
            movingTime: movingTime + (other.movingTime - movingTime) * f,
            elevationGain: elevationGain + (other.elevationGain - elevationGain) * f)
    }
}

/// Kilometre splits (seed 000).
///
/// A split closes each time the distance passes another 1000 m, in a `while` loop, so one update
/// that jumps 1.3 km still closes every split it passed. **Beyond the seed:** the boundary's
/// time, moving time and climb are interpolated between the two progress points that straddle
/// it, instead of taking the later fix's values. The tracker holds the completed splits and hands
/// them over whole at the end (the seed lost its last split to a race between a stream and the
/// save).
public struct SplitTracker: Sendable {
    public let splitLength: Double
    /// A final partial split shorter than this is dropped (and reported).
    public let minimumTail: Double
    public private(set) var completed: [Split] = []
    private var last = Progress(elapsed: 0, distance: 0, movingTime: 0, elevationGain: 0)
    private var splitStart = Progress(elapsed: 0, distance: 0, movingTime: 0, elevationGain: 0)
    private var heartRate = RunningMean()
    private var cadence = RunningMean()

    public init(splitLength: Double = 1000, minimumTail: Double = 100) {
        self.splitLength = splitLength
        self.minimumTail = minimumTail
    }

    /// Attributes a heart-rate / cadence sample to the split that is open now.
    public mutating func add(_ sample: BodySample) {
        heartRate.add(sample.heartRate)
        cadence.add(sample.cadence)
    }

    /// Records progress; returns the splits this update closed, in order.
    public mutating func record(_ progress: Progress) -> [Split] {
        var closed: [Split] = []
        while progress.distance >= Double(completed.count + 1) * splitLength {
            let boundary = Double(completed.count + 1) * splitLength
            let span = progress.distance - last.distance
            let fraction = span > 0 ? (boundary - last.distance) / span : 1
            let end = last.interpolated(to: progress, fraction: fraction)
            let split = close(at: end, distance: splitLength)
            completed.append(split)
            closed.append(split)
            last = end
        }
        last = progress
        return closed
    }

    /// Closes the flight: a remaining partial split of at least `minimumTail` becomes the final
    /// split with its real distance. Returns all splits and the metres dropped
    /// (`total − Σ split distances`).
    public mutating func finish(_ progress: Progress) -> (splits: [Split], droppedTail: Double) {
        _ = record(progress)
        let tail = progress.distance - splitStart.distance
        if tail >= minimumTail {
            completed.append(close(at: progress, distance: tail))
        }
        let counted = completed.reduce(0) { $0 + $1.distance }
        return (completed, max(0, progress.distance - counted))
    }

    private mutating func close(at end: Progress, distance: Double) -> Split {
        var split = Split(
            order: completed.count + 1, distance: distance,
            movingDuration: end.movingTime - splitStart.movingTime,
            elapsedDuration: end.elapsed - splitStart.elapsed, elapsedEnd: end.elapsed,
            heartRate: heartRate.mean, cadence: cadence.mean,
            elevationGain: max(0, end.elevationGain - splitStart.elevationGain))
        split.maxHeartRate = heartRate.maximum
        splitStart = end
        heartRate = RunningMean()
        cadence = RunningMean()
        return split
    }
}

/// A mean that skips missing values; `nil` when nothing was added. It keeps the highest value
/// too (a flight's and a split's maximum heart rate).
public struct RunningMean: Sendable, Equatable {
    public private(set) var sum: Double = 0
    public private(set) var count: Int = 0
    /// The highest value added; nil when nothing was.
    public private(set) var maximum: Double?

    public init() {}

    public mutating func add(_ value: Double?) {
        guard let value else { return }
        sum += value
        count += 1
        maximum = max(maximum ?? value, value)
    }

    public var mean: Double? { count > 0 ? sum / Double(count) : nil }
}
