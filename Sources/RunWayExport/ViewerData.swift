import RunWayCore
import RunWayStore

/// What the offline viewer reads about the flights, as the `.js` data files beside its page
/// (browsers refuse `fetch` from `file://`, so each file calls a function the page defines).
/// Missing values are `null`, never 0; samples and the route are columns, to keep a 24-hour
/// flight's file small.
public enum ViewerData {
    /// The file holding flight data, named by its UTC start (unique in a logbook's export).
    public static func fileName(_ flight: Flight) -> String {
        let (date, time) = UTCTime.components(Int(flight.startTime.rounded(.down)))
        return
            "runway-flight-\(date.replacingOccurrences(of: "-", with: ""))-\(time.replacingOccurrences(of: ":", with: "")).js"
    }

    /// One line of the logbook list (and of the calendar's days).
    static func entry(_ logged: LoggedFlight, utcOffset: Int) -> JSONValue {
        let flight = logged.flight
        let (date, time) = UTCTime.components(Int(flight.startTime.rounded(.down)) + utcOffset)
        return .object([
            ("id", .number(Double(logged.id))),
            ("file", .string(fileName(flight))),
            ("start", .string(UTCTime.format(flight.startTime))),
            ("utc_offset_s", .number(Double(utcOffset))),
            ("local_date", .string(date)),
            ("local_time", .string(String(time.prefix(5)))),
            ("mission", .bool(flight.mission != nil)),
            ("status", .string(logged.status.rawValue)),
            ("recorded", .bool(flight.status == .recorded)),
            ("distance_m", .number(flight.distance, places: 1)),
            ("elapsed_s", .number(flight.elapsed, places: 1)),
            ("moving_s", .number(flight.movingTime, places: 1)),
            ("pace_s_per_km", .number(flight.averagePace, places: 2)),
            ("gain_m", .number(flight.knownElevationGain, places: 1)),
        ])
    }

    /// The logbook file: every flight, most recent first.
    static func logbook(_ entries: [JSONValue], zone: String) -> String {
        "window.RUNWAY_LOGBOOK_DATA = "
            + JSONValue.object([("zone", .string(zone)), ("flights", .array(entries))]).rendered() + ";\n"
    }

    /// One flight's file: summary, mission, splits, alerts, FDR samples and the simplified route.
    /// The splits' ▲/▼ are the page's to judge, on the values it shows (issue 28 row 8).
    static func flight(_ logged: LoggedFlight, bodyMass: Double?) -> String {
        let f = logged.flight
        func n(_ v: Double?, _ places: Int = 1) -> JSONValue { .number(v, places: places) }
        let sink = f.alerts.filter { $0.kind == .sinkRate }.count
        let overspeed = f.alerts.filter { $0.kind == .overspeed }.count
        let summary: JSONValue = .object([
            ("distance_m", n(f.distance)), ("elapsed_s", n(f.elapsed)), ("moving_s", n(f.movingTime)),
            ("pace_s_per_km", n(f.averagePace, 2)), ("gain_m", n(f.knownElevationGain)),
            ("loss_m", n(f.elevation?.loss)),
            ("elevation_source", f.elevation.map { .string($0.source.rawValue) } ?? .null),
            ("avg_hr", n(f.averageHeartRate, 0)), ("avg_cadence", n(f.averageCadence, 0)),
            ("max_hr", n(f.maxHeartRate, 0)),
            ("calories_kcal", n(bodyMass.flatMap { f.kilocalories(bodyMass: $0) }, 0)),
            (
                "gpws",
                .object([("sink_rate", .number(Double(sink))), ("overspeed", .number(Double(overspeed)))])
            ),
        ])
        let splits = f.splits.map { s -> JSONValue in
            .object([
                ("order", .number(Double(s.order))), ("full", .bool(s.distance >= 999.5)),
                ("distance_m", n(s.distance)), ("pace_s_per_km", n(s.pace, 2)),
                ("heart_rate", n(s.heartRate, 0)), ("max_hr", n(s.maxHeartRate, 0)),
                ("cadence", n(s.cadence, 0)), ("gain_m", f.elevation == nil ? .null : n(s.elevationGain)),
                ("at_s", n(s.elapsedEnd)),
            ])
        }
        let alerts = f.alerts.filter { $0.kind != .minimums }.map { a -> JSONValue in
            .object([
                ("kind", .string(a.kind.rawValue)), ("start_s", n(a.startElapsed)),
                ("end_s", n(a.endElapsed ?? f.elapsed)),
                ("lat", n(a.coordinate?.latitude, 6)), ("lon", n(a.coordinate?.longitude, 6)),
            ])
        }
        let s = f.samples
        // The FDR's time axis: the flight's own time, never under its last sample's and never 0
        // wide (a flight of one sample at 0 s), so the page never divides by zero.
        let span = max(f.elapsed.isFinite ? f.elapsed : 0, s.last?.elapsed ?? 0)
        let samples: JSONValue = .object([
            ("t", .array(s.map { n($0.elapsed) })), ("d", .array(s.map { n($0.distance) })),
            ("pace", .array(s.map { n($0.pace) })), ("hr", .array(s.map { n($0.heartRate, 0) })),
            ("spm", .array(s.map { n($0.cadence, 0) })), ("alt", .array(s.map { n($0.altitude) })),
            ("hdg", .array(s.map { n($0.heading, 0) })),
            ("paused", .array(s.map { .number($0.paused ? 1 : 0) })),
            ("span_s", n(span > 0 ? span : 1)),
        ])
        let route = f.simplifiedRoute.points
        let routeJSON: JSONValue = .object([
            ("t", .array(route.map { n($0.elapsed) })),
            ("lat", .array(route.map { n($0.coordinate.latitude, 6) })),
            ("lon", .array(route.map { n($0.coordinate.longitude, 6) })),
        ])
        let mission: JSONValue =
            f.mission.map {
                .object([
                    ("pace_s_per_km", n($0.targetPace, 0)), ("deviation_s_per_km", n($0.allowedDeviation, 0)),
                    ("distance_m", n($0.targetDistance, 0)),
                    ("hr_low", n($0.heartRate?.low, 0)), ("hr_high", n($0.heartRate?.high, 0)),
                    ("time_s", n($0.targetDuration, 0)),
                ])
            } ?? .null
        let reason: JSONValue =
            s.isEmpty
            ? .string(
                logged.status == .flying
                    ? "it is still in the air (samples are stored at touchdown)"
                    : "it was stored without them (an older build or a salvage)") : .null
        let data: JSONValue = .object([
            ("id", .number(Double(logged.id))), ("summary", summary), ("mission", mission),
            ("splits", .array(splits)),
            ("alerts", .array(alerts)), ("samples", samples), ("route", routeJSON),
            ("no_samples_reason", reason), ("zones", zones(f)),
        ])
        return "RUNWAY_FLIGHT(\(logged.id), \(data.rendered()));\n"
    }

    /// The time-in-zone bar's data: moving seconds in zones 1…5 (`s`) and each zone's bpm range
    /// (`low`, `high`; null without the zones); null without time in zone.
    static func zones(_ f: Flight) -> JSONValue {
        guard let times = f.timeInZone else { return .null }
        let ranges = times.indices.map { f.heartRateZones?.range(of: $0 + 1) }
        return .object([
            ("s", .array(times.map { .number($0, places: 1) })),
            ("low", .array(ranges.map { .number($0?.lowerBound, places: 0) })),
            ("high", .array(ranges.map { .number($0?.upperBound, places: 0) })),
            ("method", f.heartRateZones.map { .string($0.method.rawValue) } ?? .null),
        ])
    }
}
