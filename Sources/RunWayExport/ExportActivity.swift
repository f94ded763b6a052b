import RunWayCore

/// A flight as every export format sees it: a track of points at most one per second (as a
/// watch records), laps (one per split), pauses, and the session's totals. Built once from the
/// logbook's flight; the FIT, GPX and TCX encoders only render it.
public struct ExportActivity: Sendable, Equatable {
    /// One track point: a counted fix with what the flight data recorder knew at its moment.
    public struct Point: Sendable, Equatable {
        /// Seconds since ROTATE.
        public var elapsed: Double
        /// GPS time, seconds since the Unix epoch.
        public var time: Double
        public var coordinate: Coordinate
        /// Metres from the start, never decreasing.
        public var distance: Double
        /// Metres relative to the start (0 at ROTATE), from `elevationSource`.
        public var altitude: Double?
        /// Metres per second; nil while paused or before the first pace.
        public var speed: Double?
        public var heartRate: Double?
        /// Steps per minute (FIT and TCX's running cadence are strides per minute: half).
        public var cadence: Double?
    }

    /// One lap: a split of the flight, or a lap of its own (a workout's step, a pressed lap).
    public struct Lap: Sendable, Equatable {
        public var startElapsed: Double
        public var endElapsed: Double
        public var distance: Double
        public var movingTime: Double
        public var heartRate: Double?
        /// The split's highest heart rate; nil without readings.
        public var maximumHeartRate: Double?
        public var cadence: Double?
        public var ascent: Double
        /// Where the altitudes came from; nil: none (no barometer and no GPS altitude).
        public var elevationSource: ElevationSource?
        public var descent: Double?
        /// A workout step's purpose; active for a split or a pressed lap.
        public var intensity = Intensity.active
        /// What ended it; nil: a split (a distance, the last one the session's end).
        public var trigger: LapTrigger?
        /// The workout step it flew (its index); nil for a split or a lap after the workout.
        public var workoutStep: Int?

        public var elapsed: Double { endElapsed - startElapsed }
    }

    public var startTime: Double
    public var endTime: Double
    public var elapsed: Double
    public var movingTime: Double
    public var distance: Double
    public var ascent: Double
    /// Where the altitudes came from; nil: none (no barometer and no GPS altitude).
    public var elevationSource: ElevationSource?
    public var descent: Double?
    /// Nil without a body mass in the configuration.
    public var calories: Double?
    public var averageHeartRate: Double?
    /// The flight's; for a flight stored before it was kept, its samples' highest.
    public var maximumHeartRate: Double?
    /// The zones the flight's time in zone was counted in; nil without them.
    public var heartRateZones: HeartRateZones?
    /// Moving seconds in zones 1…5; nil without heart rate.
    public var timeInZone: [Double]?
    public var averageCadence: Double?
    public var points: [Point]
    public var laps: [Lap]
    /// The workout flown (its steps are the FIT's `workout_step`s); nil without one.
    public var workout: Workout?
    /// In flight-elapsed seconds.
    public var pauses: [PauseInterval]
    /// Whether any altitude was recorded (no barometer: none, never 0).
    public var hasAltitude: Bool { points.contains { $0.altitude != nil } }

    /// What the altitudes are measured from, zeroed at ROTATE. Every format says so where it can,
    /// so a service keeps (or knowingly replaces) the file's elevation profile.
    public var altitudeReference: String? {
        switch elevationSource {
        case .barometer: "barometric altitude (BMP280), 0 m at the start"
        case .gps: "GPS altitude, 0 m at the start"
        case nil: nil
        }
    }

    /// The file's creator name: says the altitude is barometric when it is.
    public var creatorName: String {
        elevationSource == .barometer ? "RunWay Core (barometric altitude)" : "RunWay Core"
    }

    public init(flight: Flight, bodyMass: Double? = nil) {
        startTime = flight.startTime
        endTime = flight.startTime + flight.elapsed
        elapsed = flight.elapsed
        movingTime = flight.movingTime
        distance = flight.distance
        ascent = flight.elevationGain
        elevationSource = flight.elevation?.source
        descent = flight.elevation?.loss
        calories = bodyMass.flatMap { flight.kilocalories(bodyMass: $0) }
        averageHeartRate = flight.averageHeartRate
        maximumHeartRate = Self.maximumHeartRate(flight)
        heartRateZones = flight.heartRateZones
        timeInZone = flight.timeInZone
        averageCadence = flight.averageCadence
        pauses = flight.pauses
        points = Self.track(flight)
        laps = flight.laps.isEmpty ? Self.laps(flight) : Self.workoutLaps(flight)
        workout = flight.workout
    }

    /// Running cadence as FIT, TCX and Garmin's GPX write it: strides (not steps) per minute,
    /// whole, nil where missing or beyond what a cadence field holds (254).
    public static func strides(_ stepsPerMinute: Double?) -> Int? {
        stepsPerMinute.map { Int(($0 / 2).rounded()) }.flatMap { $0 <= 254 ? $0 : nil }
    }

    /// The track's own length, as a service measuring the GPX takes it: great-circle steps
    /// summed within each segment (never across a pause).
    public var trackLength: Double {
        segments.reduce(0) { total, segment in
            zip(segment, segment.dropFirst()).reduce(total) {
                $0 + Geodesy.distance($1.0.coordinate, $1.1.coordinate)
            }
        }
    }

    /// The track split at every pause: GPX's segments, FIT's and TCX's timer gaps.
    public var segments: [[Point]] {
        var segments: [[Point]] = [[]]
        var pauseIndex = 0
        for point in points {
            var crossed = false
            while pauseIndex < pauses.count, pauses[pauseIndex].end <= point.elapsed {
                pauseIndex += 1
                crossed = true
            }
            if crossed, !segments[segments.count - 1].isEmpty { segments.append([]) }
            segments[segments.count - 1].append(point)
        }
        return segments.filter { !$0.isEmpty }
    }

    /// Every counted fix, the first of each whole second, with the recorder's values around it:
    /// distance interpolated between the two samples that straddle it (so the track ends at the
    /// flight's distance), the other values from the sample at or before it.
    static func track(_ flight: Flight) -> [Point] {
        let samples = flight.samples
        var points: [Point] = []
        points.reserveCapacity(min(flight.route.points.count, Int(flight.elapsed) + 1))
        var lastSecond = -Double.infinity
        var s = 0
        var lastDistance = 0.0
        for routePoint in flight.route.points {
            let second = (flight.startTime + routePoint.elapsed).rounded(.down)
            guard second > lastSecond else { continue }
            lastSecond = second
            while s + 1 < samples.count, samples[s + 1].elapsed <= routePoint.elapsed { s += 1 }
            let before =
                samples.indices.contains(s) && samples[s].elapsed <= routePoint.elapsed ? samples[s] : nil
            let after = samples.indices.contains(s + 1) ? samples[s + 1] : nil
            var distance: Double
            switch (before, after) {
            case (let b?, let a?) where a.elapsed > b.elapsed:
                let f = (routePoint.elapsed - b.elapsed) / (a.elapsed - b.elapsed)
                distance = b.distance + (a.distance - b.distance) * f
            case (let b?, _):
                let f =
                    flight.elapsed > b.elapsed
                    ? (routePoint.elapsed - b.elapsed) / (flight.elapsed - b.elapsed) : 1
                distance = b.distance + (flight.distance - b.distance) * min(max(f, 0), 1)
            default:
                distance = 0
            }
            distance = min(max(distance, lastDistance), flight.distance)
            lastDistance = distance
            points.append(
                Point(
                    elapsed: routePoint.elapsed, time: flight.startTime + routePoint.elapsed,
                    coordinate: routePoint.coordinate, distance: distance, altitude: before?.altitude,
                    speed: before?.pace.map { 1000 / $0 }, heartRate: before?.heartRate,
                    cadence: before?.cadence))
        }
        // The last metres were counted at touchdown (inside the 5 m anchor), after the last
        // counted fix: the track ends where the flight does, at its distance.
        if var last = points.last, last.distance < flight.distance {
            let end = flight.startTime + flight.elapsed
            if end.rounded(.down) > last.time.rounded(.down) {
                last.elapsed = flight.elapsed
                last.time = end
                last.speed = nil
                points.append(last)
            }
            points[points.count - 1].distance = flight.distance
        }
        return points
    }

    /// The flight's highest heart rate; for a flight stored before it was kept, its samples'.
    static func maximumHeartRate(_ flight: Flight) -> Double? {
        flight.maxHeartRate ?? flight.samples.compactMap(\.heartRate).max()
    }

    /// One lap per split. A final piece under 100 m that the splits dropped belongs to the last
    /// lap, so the laps add up to the session; a flight without splits is one lap.
    static func laps(_ flight: Flight) -> [Lap] {
        var laps = flight.splits.map {
            Lap(
                startElapsed: $0.elapsedEnd - $0.elapsedDuration, endElapsed: $0.elapsedEnd,
                distance: $0.distance, movingTime: $0.movingDuration, heartRate: $0.heartRate,
                maximumHeartRate: $0.maxHeartRate, cadence: $0.cadence, ascent: $0.elevationGain)
        }
        guard var last = laps.popLast() else {
            return [
                Lap(
                    startElapsed: 0, endElapsed: flight.elapsed, distance: flight.distance,
                    movingTime: flight.movingTime, heartRate: flight.averageHeartRate,
                    maximumHeartRate: maximumHeartRate(flight), cadence: flight.averageCadence,
                    ascent: flight.elevationGain)
            ]
        }
        let covered = laps.reduce(0) { $0 + $1.movingTime } + last.movingTime
        last.movingTime += max(0, flight.movingTime - covered)
        last.distance += flight.droppedTail
        last.endElapsed = max(last.endElapsed, flight.elapsed)
        laps.append(last)
        return laps
    }
}
