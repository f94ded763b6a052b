import RunWayCore

/// The raw log's readings in time order, by kind: what a second of the export takes its heart
/// rate, cadence, speed and receiver altitude from.
struct RawReadings: Sendable {
    struct Reading: Sendable {
        var time: Double
        var value: Double
    }

    var heartRate: [Reading] = []
    var cadence: [Reading] = []
    var speed: [Reading] = []
    /// The receiver's altitude above mean sea level, per fix that has one.
    var gpsAltitude: [Reading] = []
    var pressure: [PressureSample] = []
    /// Every fix with a position (mode ≥ 2), for the receiver's altitude replay.
    var fixes: [Fix] = []

    /// A runner's speed above this is a receiver glitch (`FlightInProgress.add`'s 12 m/s).
    static let fastestSpeed = 12.0

    init(_ inputs: [EngineInput], from start: Double, to end: Double) {
        for input in inputs {
            let time = input.time
            guard time.isFinite, time >= start - 10, time <= end + 1 else { continue }
            switch input {
            case .fix(let fix) where fix.mode >= 2:
                fixes.append(fix)
                if let speed = fix.speed, speed.isFinite, speed >= 0, speed <= Self.fastestSpeed {
                    self.speed.append(Reading(time: time, value: speed))
                }
                if let altitude = fix.altitude, altitude.isFinite, fix.mode >= 3 {
                    gpsAltitude.append(Reading(time: time, value: altitude))
                }
            case .body(let body):
                // A heart rate of 0 from a sensor is missing (ARCHITECTURE: missing is nil).
                if let hr = body.heartRate, hr.isFinite, hr > 0 {
                    heartRate.append(Reading(time: time, value: hr))
                }
                if let cadence = body.cadence, cadence.isFinite, cadence >= 0 {
                    self.cadence.append(Reading(time: time, value: cadence))
                }
            case .pressure(let sample): pressure.append(sample)
            default: break
            }
        }
        // A damaged or merged raw log may hold an input out of order: each kind sorted by time.
        for keyPath in [\RawReadings.heartRate, \.cadence, \.speed, \.gpsAltitude] {
            self[keyPath: keyPath].sort { $0.time < $1.time }
        }
        fixes.sort { $0.time < $1.time }
        pressure.sort { $0.time < $1.time }
    }

    var isEmpty: Bool { fixes.isEmpty && pressure.isEmpty && heartRate.isEmpty && cadence.isEmpty }
}

/// A walk forward through one kind of reading: the value in force at a second, the latest at or
/// before it and no older than `maximumAge`.
struct ReadingCursor {
    let readings: [RawReadings.Reading]
    let maximumAge: Double
    private var index = -1

    init(_ readings: [RawReadings.Reading], maximumAge: Double) {
        self.readings = readings
        self.maximumAge = maximumAge
    }

    /// Times must not decrease from one call to the next.
    mutating func value(at time: Double) -> Double? {
        while index + 1 < readings.count, readings[index + 1].time <= time { index += 1 }
        guard index >= 0, time - readings[index].time <= maximumAge else { return nil }
        return readings[index].value
    }
}

extension ExportActivity {
    /// How old a reading may be and still be the value at a second. Heart rate and cadence:
    /// the engine's own `bodySampleMaxAge` (10 s: a strap sends once a second, and a sensor
    /// silent longer is treated as gone). Speed: 2 s — a receiver at 1 Hz has a fix every
    /// second, and an older Doppler reading is no speed at that second.
    static let bodyReadingAge = 10.0
    static let speedReadingAge = 2.0
    /// Longest stretch without a position that a second's position is interpolated across
    /// while running: a 0.5 Hz receiver leaves 2 s, a tunnel or a signal gap much more; past
    /// 10 s the record has no position, as a watch without signal writes none.
    static let interpolatedGap = 10.0

    /// The per-second series: one record at every whole GPS second from ROTATE to TOUCHDOWN,
    /// paused or not (Garmin records with a stopped timer). Position: the saved route's point
    /// nearest that second (a 10 Hz receiver's fixes downsampled), interpolated across a gap of
    /// at most `interpolatedGap`, held where the runner stood during a pause. Distance: the
    /// flight's recorder interpolated to that second. Heart rate, cadence and speed: the raw log's
    /// latest reading at that second. Altitude: `profile` (the counted altitude the gain comes
    /// from) at that second, above sea level by `anchor` when known.
    static func series(
        _ flight: Flight, readings: RawReadings, profile: AltitudeProfile?, anchor: Double?,
        timer: [ClosedRange<Double>]
    ) -> [Point] {
        let first = flight.startTime.rounded(.up)
        let last = max(first, (flight.startTime + flight.elapsed).rounded(.down))
        let count = Int(last - first) + 1
        var points: [Point] = []
        points.reserveCapacity(count)
        var positions = PositionCursor(flight.route.points)
        var distances = DistanceCursor(flight)
        var heartRates = ReadingCursor(readings.heartRate, maximumAge: bodyReadingAge)
        var cadences = ReadingCursor(readings.cadence, maximumAge: bodyReadingAge)
        var speeds = ReadingCursor(readings.speed, maximumAge: speedReadingAge)
        var samples = SampleCursor(flight.samples)
        var stopped = TimerCursor(timer)
        let fromLog = !readings.isEmpty
        for n in 0..<count {
            let time = first + Double(n)
            let elapsed = time - flight.startTime
            let paused = stopped.isStopped(at: time)
            let sample = samples.sample(at: elapsed)
            var point = Point(
                elapsed: elapsed, time: time,
                coordinate: positions.coordinate(at: elapsed, paused: paused, gap: interpolatedGap),
                distance: distances.distance(at: elapsed), altitude: nil, speed: nil, heartRate: nil,
                cadence: nil, paused: paused)
            if fromLog {
                point.heartRate = heartRates.value(at: time)
                point.cadence = cadences.value(at: time)
                point.speed = speeds.value(at: time)
            } else {
                point.heartRate = sample?.heartRate
                point.cadence = sample?.cadence
                point.speed = paused ? nil : sample?.pace.map { 1000 / $0 }
            }
            if let profile {
                point.altitude = profile.altitude(at: time).map { $0 + (anchor ?? 0) }
            } else {
                point.altitude = sample?.altitude.map { $0 + (anchor ?? 0) }
            }
            points.append(point)
        }
        if !points.isEmpty { points[points.count - 1].distance = flight.distance }
        return points
    }
}

/// The flight's recorder distance at a second: linear between the two samples either side, from
/// the last sample to the flight's distance at TOUCHDOWN; never decreasing.
struct DistanceCursor {
    let samples: [FDRSample]
    let elapsed: Double
    let total: Double
    private var index = 0
    private var last = 0.0

    init(_ flight: Flight) {
        samples = flight.samples
        elapsed = flight.elapsed
        total = flight.distance
    }

    mutating func distance(at t: Double) -> Double {
        while index < samples.count, samples[index].elapsed <= t { index += 1 }
        // samples[index - 1] at or before t, samples[index] after it.
        let before = index > 0 ? (samples[index - 1].elapsed, samples[index - 1].distance) : (0, 0)
        let after =
            index < samples.count ? (samples[index].elapsed, samples[index].distance) : (elapsed, total)
        var d = before.1
        if after.0 > before.0 {
            d += (after.1 - before.1) * min(max((t - before.0) / (after.0 - before.0), 0), 1)
        }
        last = min(max(d, last), total)
        return last
    }
}

/// The recorder's sample at or before a second (the values of a flight without a raw log).
struct SampleCursor {
    let samples: [FDRSample]
    private var index = -1

    init(_ samples: [FDRSample]) { self.samples = samples }

    mutating func sample(at t: Double) -> FDRSample? {
        while index + 1 < samples.count, samples[index + 1].elapsed <= t { index += 1 }
        return index >= 0 ? samples[index] : nil
    }
}

/// Whether the timer is stopped at a whole GPS second: outside every running stretch, or at a
/// stretch's stop.
struct TimerCursor {
    let intervals: [ClosedRange<Double>]
    private var index = 0

    init(_ intervals: [ClosedRange<Double>]) { self.intervals = intervals }

    mutating func isStopped(at time: Double) -> Bool {
        while index < intervals.count, intervals[index].upperBound <= time { index += 1 }
        return !(index < intervals.count && intervals[index].lowerBound <= time)
    }
}

/// The route's position at a second.
struct PositionCursor {
    let points: [RoutePoint]
    private var index = 0

    init(_ points: [RoutePoint]) { self.points = points }

    mutating func coordinate(at t: Double, paused: Bool, gap: Double) -> Coordinate? {
        guard !points.isEmpty else { return nil }
        // points[index] is the first after t (or the end).
        while index < points.count, points[index].elapsed <= t { index += 1 }
        let before = index > 0 ? points[index - 1] : nil
        let after = index < points.count ? points[index] : nil
        // A 10 Hz receiver: the point nearest the second, within half a second.
        if let before, t - before.elapsed < 0.5, after.map({ $0.elapsed - t >= t - before.elapsed }) ?? true {
            return before.coordinate
        }
        if let after, after.elapsed - t <= 0.5 { return after.coordinate }
        if paused { return (before ?? after)?.coordinate }
        // Before the route's first point the runner is where it begins (the first counted fix
        // waits for a 5 m step); after its last, where it ended, standing until END.
        guard let before else { return after?.coordinate }
        guard let after else { return before.coordinate }
        guard after.elapsed - before.elapsed <= gap else { return nil }
        let f = (t - before.elapsed) / (after.elapsed - before.elapsed)
        return Coordinate(
            latitude: before.coordinate.latitude + (after.coordinate.latitude - before.coordinate.latitude)
                * f,
            longitude: before.coordinate.longitude
                + (after.coordinate.longitude - before.coordinate.longitude) * f)
    }
}
