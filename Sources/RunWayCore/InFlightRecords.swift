// What a flight in progress records that grows with its length — every counted fix of the route
// and every FDR sample — held as compact integer columns in fixed chunks (`ChunkedColumn`)
// until touchdown decodes them into the `Flight`'s `RoutePoint`s and `FDRSample`s (issue 29: a
// day's run at 10 Hz held 113 KiB an hour in arrays of doubles and optionals, up to twice that
// with the arrays' doubling, and the daemon grew 3 MiB over the day).
//
// The rounding is the recording's, done as a value is recorded, by the one `FlightInProgress`
// every flight goes through: the board, a replay, recovery and reprocessing round the same
// inputs to the same integers, so a recovered flight still equals the landed one.

/// The route as it is recorded in the air: 12 bytes a point (a `RoutePoint` is 24).
///
/// - elapsed: `Int32` milliseconds since ROTATE (±24.8 days). A receiver dates its fixes to the
///   millisecond at best (10 Hz epochs are 100 ms apart), and at a runner's 6 m/s a millisecond
///   is 6 mm.
/// - latitude, longitude: `Int32` in 1e-7 degrees (±214.7°), 1.1 cm on the ground at most
///   (less in longitude away from the equator). A receiver's position wanders by metres, and
///   the rounding, independent from point to point, adds no bias to the route's length.
struct InFlightRoute: Sendable {
    static let millisecondsPerSecond = 1_000.0
    static let unitsPerDegree = 1e7

    private var elapsed = ChunkedColumn<Int32>()
    private var latitude = ChunkedColumn<Int32>()
    private var longitude = ChunkedColumn<Int32>()

    var count: Int { elapsed.count }

    mutating func append(_ point: RoutePoint) {
        elapsed.append(Quantised.encode(point.elapsed, scale: Self.millisecondsPerSecond))
        latitude.append(Quantised.encode(point.coordinate.latitude, scale: Self.unitsPerDegree))
        longitude.append(Quantised.encode(point.coordinate.longitude, scale: Self.unitsPerDegree))
    }

    subscript(index: Int) -> RoutePoint {
        RoutePoint(
            elapsed: Quantised.decode(elapsed[index], scale: Self.millisecondsPerSecond),
            coordinate: Coordinate(
                latitude: Quantised.decode(latitude[index], scale: Self.unitsPerDegree),
                longitude: Quantised.decode(longitude[index], scale: Self.unitsPerDegree)))
    }

    /// Every point, decoded: the landed flight's route.
    var decoded: [RoutePoint] { (0..<count).map { self[$0] } }

    mutating func removeAll() { keep(0) }

    /// Drops the points recorded after `limit` elapsed seconds (a flight landed at an earlier
    /// moment), compared as recorded: a point at the landing's own time stays.
    mutating func removeAll(after limit: Double) {
        let held: Int32 = Quantised.encode(limit, scale: Self.millisecondsPerSecond)
        var kept = 0
        for index in 0..<count where elapsed[index] <= held {
            if kept != index {
                elapsed[kept] = elapsed[index]
                latitude[kept] = latitude[index]
                longitude[kept] = longitude[index]
            }
            kept += 1
        }
        keep(kept)
    }

    private mutating func keep(_ length: Int) {
        elapsed.truncate(to: length)
        latitude.truncate(to: length)
        longitude.truncate(to: length)
    }

    var bytes: Int { elapsed.bytes + latitude.bytes + longitude.bytes }
}

/// The FDR's samples as they are recorded in the air: 22 bytes a sample (an `FDRSample` with its
/// optionals is 96). A missing value is the column's sentinel, never a number.
///
/// - elapsed: `Int32` milliseconds (the marks are whole multiples of the 5 s interval: exact).
/// - distance: `Int32` millimetres (±2 147 km); the odometer's own error is metres.
/// - pace: 31 bits of milliseconds per kilometre (pace is nil below 0.5 m/s, 2 000 s/km; it is
///   shown to the second and written to 0.1 s), all ones for missing; the top bit is `paused`.
/// - heart rate, cadence: `UInt16` hundredths (0–655.34; a body sample keeps 20–250 bpm and
///   0–300 steps/min, and sensors send whole numbers), `UInt16.max` for missing.
/// - altitude: `Int32` millimetres relative to ROTATE (±2 147 km; the barometer resolves ~10 cm),
///   `Int32.min` for missing. 0 is a value.
/// - heading: `UInt16` hundredths of a degree (0–360.00; shown in whole degrees), `UInt16.max`
///   for missing.
struct InFlightSamples: Sendable {
    static let millisecondsPerSecond = 1_000.0
    static let millimetresPerMetre = 1_000.0
    static let hundredths = 100.0
    static let pausedBit: UInt32 = 1 << 31
    static let paceMissing: UInt32 = pausedBit - 1

    private var elapsed = ChunkedColumn<Int32>()
    private var distance = ChunkedColumn<Int32>()
    private var paceAndPaused = ChunkedColumn<UInt32>()
    private var heartRate = ChunkedColumn<UInt16>()
    private var cadence = ChunkedColumn<UInt16>()
    private var altitude = ChunkedColumn<Int32>()
    private var heading = ChunkedColumn<UInt16>()

    var count: Int { elapsed.count }

    mutating func append(_ sample: FDRSample) {
        elapsed.append(Quantised.encode(sample.elapsed, scale: Self.millisecondsPerSecond))
        distance.append(Quantised.encode(sample.distance, scale: Self.millimetresPerMetre))
        let pace: UInt32 =
            sample.pace.flatMap { $0.isFinite ? $0 : nil }.map {
                min(Quantised.encode($0, scale: Self.millisecondsPerSecond), Self.paceMissing - 1)
            } ?? Self.paceMissing
        paceAndPaused.append(pace | (sample.paused ? Self.pausedBit : 0))
        heartRate.append(Quantised.encode(sample.heartRate, scale: Self.hundredths, missing: UInt16.max))
        cadence.append(Quantised.encode(sample.cadence, scale: Self.hundredths, missing: UInt16.max))
        altitude.append(
            Quantised.encode(sample.altitude, scale: Self.millimetresPerMetre, missing: Int32.min))
        heading.append(Quantised.encode(sample.heading, scale: Self.hundredths, missing: UInt16.max))
    }

    subscript(index: Int) -> FDRSample {
        let paceAndPaused = paceAndPaused[index]
        return FDRSample(
            elapsed: Quantised.decode(elapsed[index], scale: Self.millisecondsPerSecond),
            distance: Quantised.decode(distance[index], scale: Self.millimetresPerMetre),
            pace: Quantised.decode(
                paceAndPaused & Self.paceMissing, scale: Self.millisecondsPerSecond, missing: Self.paceMissing
            ),
            heartRate: Quantised.decode(heartRate[index], scale: Self.hundredths, missing: UInt16.max),
            cadence: Quantised.decode(cadence[index], scale: Self.hundredths, missing: UInt16.max),
            altitude: Quantised.decode(altitude[index], scale: Self.millimetresPerMetre, missing: Int32.min),
            heading: Quantised.decode(heading[index], scale: Self.hundredths, missing: UInt16.max),
            paused: paceAndPaused & Self.pausedBit != 0)
    }

    /// Every sample, decoded: the landed flight's FDR.
    var decoded: [FDRSample] { (0..<count).map { self[$0] } }

    /// Drops the samples after `limit` elapsed seconds (a flight landed at an earlier moment),
    /// compared as recorded.
    mutating func removeAll(after limit: Double) {
        let held: Int32 = Quantised.encode(limit, scale: Self.millisecondsPerSecond)
        var kept = 0
        for index in 0..<count where elapsed[index] <= held {
            if kept != index { move(index, to: kept) }
            kept += 1
        }
        elapsed.truncate(to: kept)
        distance.truncate(to: kept)
        paceAndPaused.truncate(to: kept)
        heartRate.truncate(to: kept)
        cadence.truncate(to: kept)
        altitude.truncate(to: kept)
        heading.truncate(to: kept)
    }

    private mutating func move(_ from: Int, to: Int) {
        elapsed[to] = elapsed[from]
        distance[to] = distance[from]
        paceAndPaused[to] = paceAndPaused[from]
        heartRate[to] = heartRate[from]
        cadence[to] = cadence[from]
        altitude[to] = altitude[from]
        heading[to] = heading[from]
    }

    var bytes: Int {
        elapsed.bytes + distance.bytes + paceAndPaused.bytes + heartRate.bytes + cadence.bytes
            + altitude.bytes + heading.bytes
    }
}
