import RunWayCore

/// A flight as every export format sees it: the per-second series (a record every whole GPS
/// second, paused ones too, as a watch records), laps (one per split), pauses and the timer's
/// running stretches, the altitude's anchor, what is missing, and the session's totals. Built
/// once from the logbook's flight and its raw log; the FIT, GPX and TCX encoders only render it,
/// so they cannot disagree.
public struct ExportActivity: Sendable, Equatable {
    /// One record of the per-second series: a whole GPS second of the flight, paused or not.
    public struct Point: Sendable, Equatable {
        /// Seconds since ROTATE.
        public var elapsed: Double
        /// GPS time, seconds since the Unix epoch: a whole second.
        public var time: Double
        /// Nil in a signal gap longer than `ExportActivity.interpolatedGap`.
        public var coordinate: Coordinate?
        /// Metres from the start, never decreasing.
        public var distance: Double
        /// Metres, from `elevationSource`, measured as `altitudeAnchor` says.
        public var altitude: Double?
        /// Metres per second, the receiver's at that second.
        public var speed: Double?
        public var heartRate: Double?
        /// Steps per minute (FIT and TCX's running cadence are strides per minute: half).
        public var cadence: Double?
        /// Inside a pause: the timer stopped, the record kept (as a Garmin watch records).
        public var paused: Bool = false
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
    /// The timer's running stretches in whole GPS seconds (`ExportTimer`): FIT's start and stop
    /// events, every timer total, and which records are paused.
    public private(set) var timerIntervals: [ClosedRange<Double>] = []
    /// Whether any altitude was recorded (no barometer: none, never 0).
    public var hasAltitude: Bool { points.contains { $0.altitude != nil } }

    /// What the altitudes are measured from; nil without altitude.
    public var altitudeAnchor: AltitudeAnchor?
    /// Metres added to the flight's relative altitude (0 m at the start) to put it above sea
    /// level; nil when it stays relative or there is none.
    public var altitudeOffset: Double?
    /// What the files lack, each said in the file (GPX and TCX description, FIT device_info):
    /// a damaged raw log, no heart rate for part of the run, no altitude.
    public var missing: [String] = []

    /// What the altitudes are and what they are measured from. Every format says so where it
    /// can, so a service keeps (or knowingly replaces) the file's elevation profile.
    public var altitudeReference: String? {
        let anchor = (altitudeAnchor ?? .start).description
        switch elevationSource {
        case .barometer: return "barometric altitude (BMP280), \(anchor)"
        case .gps: return "GPS altitude, \(anchor)"
        case nil: return nil
        }
    }

    /// The file's creator name: says the altitude is barometric when it is.
    public var creatorName: String {
        elevationSource == .barometer ? "RunWay Core (barometric altitude)" : "RunWay Core"
    }

    /// The description each file carries: the altitude's reference and what is missing.
    public var description: String {
        var lines: [String] = []
        if let reference = altitudeReference { lines.append("Elevation: \(reference).") }
        lines += missing
        return lines.joined(separator: " ")
    }

    /// `inputs` is the flight's raw log (`Logbook.rawInputSequence`): each second's heart rate,
    /// cadence, speed and altitude come from it; without it (a flight whose raw log is gone) from
    /// the recorder's 5-s samples. `homeAltitude` anchors the altitude when configured;
    /// `rawLogGaps` are the holes a damaged card left (seconds from ROTATE), said in the files.
    public init(
        flight: Flight, bodyMass: Double? = nil, inputs: [EngineInput] = [], homeAltitude: Double? = nil,
        rawLogGaps: [ClosedRange<Double>] = [], configuration: EngineConfiguration = EngineConfiguration()
    ) {
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
        timerIntervals = Self.runningStretches(
            startTime: startTime, elapsed: elapsed, movingTime: movingTime, pauses: pauses)
        let readings = RawReadings(inputs, from: flight.startTime, to: endTime)
        let end = endTime
        let profile = elevationSource.flatMap {
            AltitudeProfile(
                readings: readings, source: $0, startTime: flight.startTime, configuration: configuration,
                smoothed: flight.distanceMethod == .smoothed, endTime: end)
        }
        let anchored = profile?.anchor(readings: readings, homeAltitude: homeAltitude)
        if elevationSource != nil { altitudeAnchor = anchored?.anchor ?? .start }
        altitudeOffset = anchored?.offset
        points = Self.series(
            flight, readings: readings, profile: profile, anchor: anchored?.offset, timer: timerIntervals)
        laps = flight.laps.isEmpty ? Self.laps(flight) : Self.workoutLaps(flight)
        workout = flight.workout
        missing = Self.missing(flight, points: points, hasRawLog: !inputs.isEmpty, gaps: rawLogGaps)
    }

    /// What the files say is missing, in words a runner reads in a service's description.
    static func missing(
        _ flight: Flight, points: [Point], hasRawLog: Bool, gaps: [ClosedRange<Double>]
    ) -> [String] {
        var said: [String] = []
        for gap in gaps {
            said.append(
                "The raw log was damaged from \(Int(gap.lowerBound)) s to \(Int(gap.upperBound)) s after "
                    + "the start: those seconds have no heart rate, cadence or speed.")
        }
        if !hasRawLog {
            said.append("No raw log: heart rate, cadence, speed and altitude are the 5-s recorder's.")
        }
        if flight.elevation == nil { said.append("No altitude: no barometer and no GPS altitude.") }
        let withHeartRate = points.filter { $0.heartRate != nil }.count
        if withHeartRate == 0 {
            said.append("No heart rate.")
        } else if withHeartRate < points.count * 9 / 10 {
            let percent = Int((Double(points.count - withHeartRate) / Double(points.count) * 100).rounded())
            said.append("No heart rate for \(percent) % of the seconds (no sensor reading).")
        }
        let withPosition = points.filter { $0.coordinate != nil }.count
        if withPosition < points.count {
            said.append("No position for \(points.count - withPosition) s (no GPS fix).")
        }
        return said
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
            let located = segment.compactMap(\.coordinate)
            return zip(located, located.dropFirst()).reduce(total) { $0 + Geodesy.distance($1.0, $1.1) }
        }
    }

    /// The series split at every pause's end: GPX's segments and TCX's tracks (a pause's own
    /// seconds, where the runner stood, end the segment before it).
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
