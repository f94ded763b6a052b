import RunWayCore

/// The altitude the export writes: the flight's own elevation rule replayed over the raw log
/// (`AltitudeFilter` then `ElevationGain` for the barometer, `GPSAltitudeFilter` then
/// `ElevationGain.gps` for the receiver), and at each second the altitude that rule *counted*:
/// the climb so far less the descent so far. A service that sums a file's rises then finds the
/// flight's gain, not the noise under the hysteresis: without a barometer the 5-s recorder's
/// terrain altitude summed to 40.3–41.0 m on a run whose gain is 26.8 m (issue 28, row 4). The
/// counted altitude stays within the rule's hysteresis of the terrain (1 m barometric, 8 m GPS).
struct AltitudeProfile: Sendable {
    private(set) var times: [Double] = []
    private(set) var values: [Double] = []
    /// The replay's climb and descent: the flight's, when the flight was flown with the defaults.
    private(set) var gain = 0.0
    private(set) var loss = 0.0

    /// Nil when the raw log gives the source nothing (no pressure accepted, no receiver altitude).
    /// `smoothed`: the flight (ending at `endTime`) was saved by the touchdown smoother, whose
    /// gain counts the barometer averaged either side of each sample (`SmoothedAltitude`), as
    /// the file's must.
    init?(
        readings: RawReadings, source: ElevationSource, startTime: Double, configuration: EngineConfiguration,
        smoothed: Bool = false, endTime: Double = .infinity
    ) {
        switch source {
        case .barometer:
            var rule = ElevationGain(configuration: configuration.elevationGain)
            if smoothed {
                // The samples `AltitudeFilter` accepts, each averaged either side.
                guard
                    let average = SmoothedAltitude(
                        pressures: readings.pressure.lazy.filter { $0.time <= endTime }, rotateAt: startTime,
                        configuration: configuration.altitude)
                else { return nil }
                for sample in average.samples {
                    rule.add(time: sample.time, altitude: sample.altitude)
                    append(sample.time, rule)
                }
            } else {
                var filter = AltitudeFilter(configuration: configuration.altitude, rotateAt: startTime)
                for sample in readings.pressure {
                    guard case .accepted(let value) = filter.add(sample) else { continue }
                    rule.add(time: sample.time, altitude: value)
                    append(sample.time, rule)
                }
            }
        case .gps:
            var filter = GPSAltitudeFilter(configuration: configuration.gpsAltitude)
            var rule = ElevationGain(configuration: configuration.gpsElevationGain)
            for fix in readings.fixes where fix.time >= startTime {
                guard let height = fix.altitude, let relative = filter.add(time: fix.time, altitude: height)
                else { continue }
                rule.add(time: fix.time, altitude: relative)
                append(fix.time, rule)
            }
        }
        guard !times.isEmpty else { return nil }
    }

    private mutating func append(_ time: Double, _ rule: ElevationGain) {
        gain = rule.total
        loss = rule.loss
        let counted = rule.total - rule.loss
        if let last = times.last, last == time {
            values[values.count - 1] = counted
        } else {
            times.append(time)
            values.append(counted)
        }
    }

    /// The counted altitude in force at `time` (the latest at or before it; the first before
    /// the first reading). Binary search: the 24-h flight asks 86 400 times.
    func altitude(at time: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        var low = 0
        var high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] <= time { low = mid + 1 } else { high = mid }
        }
        return values[max(0, low - 1)]
    }
}

/// What the altitude above sea level is measured from.
public enum AltitudeAnchor: Sendable, Equatable {
    /// The receiver's mean altitude over the run (`fixes` fixes with a 3D altitude): the
    /// relative profile shifted so its mean over those fixes' times is theirs. A receiver's
    /// altitude wanders metres to tens of metres fix to fix; its mean over a run is the best
    /// sea-level figure the board has without a map.
    case receiverMean(fixes: Int)
    /// `home_altitude_m` in the configuration: the start is at that altitude.
    case home
    /// Neither: the altitudes are relative to the start (0 m at ROTATE).
    case start

    /// Said in each file's description and in the flight's JSON.
    public var description: String {
        switch self {
        case .receiverMean(let fixes):
            "above sea level, anchored to the GPS receiver's mean altitude over \(fixes) fixes"
        case .home: "above sea level, anchored to the configured home altitude at the start"
        case .start: "relative to the start (0 m at the start): no GPS altitude to anchor it"
        }
    }

    /// The receiver's fixes the mean was taken over; nil for another anchor.
    public var fixes: Int? {
        if case .receiverMean(let fixes) = self { fixes } else { nil }
    }

    /// The JSON's short name.
    public var name: String {
        switch self {
        case .receiverMean: "gps_mean"
        case .home: "home_altitude"
        case .start: "start"
        }
    }
}

extension AltitudeProfile {
    /// The offset that puts the profile above sea level: the home altitude when configured, else
    /// mean receiver altitude minus the profile's mean at the same fixes; nil with neither.
    func anchor(readings: RawReadings, homeAltitude: Double?) -> (offset: Double, anchor: AltitudeAnchor)? {
        if let homeAltitude, homeAltitude.isFinite { return (homeAltitude - (values.first ?? 0), .home) }
        var sum = 0.0
        var n = 0
        for reading in readings.gpsAltitude where (-500...9000).contains(reading.value) {
            guard let relative = altitude(at: reading.time) else { continue }
            sum += reading.value - relative
            n += 1
        }
        guard n > 0 else { return nil }
        return (sum / Double(n), .receiverMean(fixes: n))
    }
}

extension ExportActivity {
    /// The flight JSON's `altitude_anchor` (`runway show --json`, `runway fly --json`): the
    /// reference (`gps_mean`, `home_altitude`, `start`), the receiver's fixes it was taken over,
    /// the metres added to the flight's relative altitude, and the sentence the files say; null
    /// without altitude.
    public var anchorJSON: JSONValue {
        guard let anchor = altitudeAnchor else { return .null }
        return .object([
            ("reference", .string(anchor.name)),
            ("gps_fixes", anchor.fixes.map { .number(Double($0)) } ?? .null),
            ("offset_m", .number(altitudeOffset ?? 0, places: 1)),
            ("description", .string(anchor.description)),
        ])
    }
}
