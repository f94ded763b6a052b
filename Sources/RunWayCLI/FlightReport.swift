import RunWayCore

/// The ways a finished flight is shown: the Flight Summary a runner reads, and the JSON that
/// scripts read. JSON field names are a contract: add fields, never rename or drop them.
public enum FlightReport {
    // MARK: JSON

    /// - Parameter warningsCount: how many diagnostics there were in all, when `diagnostics`
    ///   holds only the first of them.
    public static func json(
        _ flight: Flight, diagnostics: [Diagnostic] = [], warningsCount: Int? = nil, bodyMass: Double? = nil
    ) -> JSONValue {
        .object(fields(flight, diagnostics: diagnostics, warningsCount: warningsCount, bodyMass: bodyMass))
    }

    /// The fields of `json`, in order, for a caller that adds its own after them.
    static func fields(
        _ flight: Flight, diagnostics: [Diagnostic] = [], warningsCount: Int? = nil, bodyMass: Double? = nil
    ) -> [(String, JSONValue)] {
        func n(_ value: Double?, _ places: Int = 1) -> JSONValue { .number(value, places: places) }
        let splits: [JSONValue] = flight.splits.map { split in
            .object([
                ("order", .number(Double(split.order))),
                ("distance_m", n(split.distance)),
                ("moving_s", n(split.movingDuration)),
                ("elapsed_s", n(split.elapsedDuration)),
                ("elapsed_end_s", n(split.elapsedEnd)),
                ("pace_s_per_km", n(split.pace)),
                ("elevation_gain_m", n(flight.elevation == nil ? nil : split.elevationGain)),
                ("heart_rate", n(split.heartRate)),
                ("cadence", n(split.cadence)),
                ("max_heart_rate", n(split.maxHeartRate)),
            ])
        }
        let alerts: [JSONValue] = flight.alerts.map { alert in
            .object([
                ("kind", .string(alert.kind.rawValue)),
                ("start_elapsed_s", n(alert.startElapsed)),
                ("end_elapsed_s", n(alert.endElapsed)),
                ("lat", n(alert.coordinate?.latitude, 7)),
                ("lon", n(alert.coordinate?.longitude, 7)),
            ])
        }
        let mission: JSONValue =
            flight.mission.map {
                .object([
                    ("target_pace_s_per_km", n($0.targetPace)),
                    ("allowed_deviation_s_per_km", n($0.allowedDeviation)),
                    ("target_distance_m", n($0.targetDistance)),
                    // A heart-rate mission's band and a time goal (null for a pace mission).
                    ("target_hr_low", n($0.heartRate?.low)), ("target_hr_high", n($0.heartRate?.high)),
                    ("target_zone", $0.heartRate?.zone.map { .number(Double($0)) } ?? .null),
                    ("target_time_s", n($0.targetDuration)),
                ])
            } ?? .null
        return [
            ("recorded", .bool(flight.status == .recorded)),
            ("status", .string(flight.status.rawValue)),
            ("start_time", .string(UTCTime.format(flight.startTime))),
            ("end_time", .string(UTCTime.format(flight.endTime))),
            ("distance_m", n(flight.distance)),
            // Where the distance, splits and route come from, and what the runner heard live.
            ("distance_method", .string(flight.distanceMethod.rawValue)),
            ("live_distance_m", n(flight.liveDistance)),
            ("smoothing_note", flight.smoothingNote.map { .string($0) } ?? .null),
            ("elapsed_s", n(flight.elapsed)),
            ("moving_s", n(flight.movingTime)),
            ("elevation_gain_m", n(flight.knownElevationGain)),
            ("elevation_loss_m", n(flight.elevation?.loss)),
            ("altitude_min_m", n(flight.elevation?.minimum)),
            ("altitude_max_m", n(flight.elevation?.maximum)),
            ("elevation_source", flight.elevation.map { .string($0.source.rawValue) } ?? .null),
            ("avg_pace_s_per_km", n(flight.averagePace)),
            ("avg_heart_rate", n(flight.averageHeartRate)),
            ("avg_cadence", n(flight.averageCadence)),
        ] + heartRateFields(flight) + [
            ("mission", mission),
            ("splits", .array(splits)),
            ("alerts", .array(alerts)),
            ("samples", .number(Double(flight.samples.count))),
            ("route_points", .number(Double(flight.route.points.count))),
            ("route_points_simplified", .number(Double(flight.simplifiedRoute.points.count))),
            ("dropped_tail_m", n(flight.droppedTail)),
            ("warnings", .array(diagnostics.prefix(100).map { .string($0.description) })),
            ("warnings_count", .number(Double(warningsCount ?? diagnostics.count))),
            ("calories_kcal", n(bodyMass.flatMap(flight.kilocalories(bodyMass:)), 0)),
            // Each pause and why (auto, manual, vehicle, signal), and who landed the flight.
            (
                "pauses",
                .array(
                    flight.pauses.map {
                        .object([
                            ("start_elapsed_s", n($0.start)), ("end_elapsed_s", n($0.end)),
                            ("reason", .string($0.reason.jsonName)),
                        ])
                    })
            ),
            ("landed_by", .string(flight.landing.rawValue)),
        ] + lapsJSON(flight)
    }

    /// An FDR sample's readings as `runway show --json` and `runway replay --json` both name them;
    /// each says the sample's time and pause around them in its own way.
    static func readings(_ sample: FDRSample) -> [(String, JSONValue)] {
        [
            ("distance_m", .number(sample.distance, places: 1)),
            ("pace_s_per_km", .number(sample.pace, places: 1)),
            ("heart_rate", .number(sample.heartRate, places: 0)),
            ("cadence", .number(sample.cadence, places: 0)),
            ("altitude_m", .number(sample.altitude, places: 1)),
            ("heading_deg", .number(sample.heading, places: 0)),
        ]
    }

    // MARK: Flight Summary

    /// Which engine the distance, splits and route are: the touchdown smoother's with the live
    /// distance beside it, or the live engine's and why (nil for a flight stored before either
    /// was said, whose figures are the live engine's).
    /// What the board decided for the runner, when it did: a vehicle's pauses, a forgotten stop's
    /// landing (nil for a flight with neither, whose summary is unchanged).
    static func slipsLine(_ flight: Flight) -> String? {
        var parts: [String] = []
        let rides = flight.pauses.filter { $0.reason == .vehicle }
        if !rides.isEmpty {
            let seconds = rides.reduce(0) { $0 + $1.duration }
            parts.append(
                "\(rides.count) vehicle pause\(rides.count == 1 ? "" : "s") (\(UTCTime.duration(seconds)))")
        }
        if flight.landing == .standstill {
            parts.append("landed after a forgotten stop, at the last movement")
        }
        return parts.isEmpty ? nil : "  Board         " + parts.joined(separator: "; ")
    }

    static func distanceMethodLine(_ flight: Flight) -> String? {
        switch flight.distanceMethod {
        case .smoothed:
            let live = flight.liveDistance.map { ", live \(km($0)) km" } ?? ""
            return "  Distance is smoothed over the whole run at touchdown\(live)"
        case .live:
            guard let note = flight.smoothingNote else { return nil }
            return "  Distance is the live engine's (not smoothed: \(note))"
        }
    }

    /// The Flight Summary as a runner reads it on a terminal; `verdict` replaces RECORDED when the
    /// logbook could not store the flight whole.
    /// `units`: the runner's (`run.units`): the distance, paces and split labels in it.
    public static func summary(
        _ flight: Flight, bodyMass: Double? = nil, zone: LocalZone = .utc, verdict: String? = nil,
        units: DistanceUnit = .kilometre
    ) -> String {
        var lines: [String] = []
        let kind =
            flight.mission.map { "MISSION FLIGHT (\(MissionOption.describe($0)))" } ?? "FREE FLIGHT"
        let status =
            flight.status == .recorded
            ? verdict ?? "RECORDED" : "NOT RECORDED — TOO SHORT (\(Int(flight.distance.rounded())) m)"
        lines.append("FLIGHT SUMMARY  \(kind)  \(status)")
        lines.append("  \(zone.describe(flight.startTime))")
        lines.append(
            row(
                "Distance", "\(km(flight.distance * 1000 / units.metres)) \(units.rawValue)", "Avg pace",
                "\(Pace.format(flight.averagePace.map(units.pace))) /\(units.rawValue)"))
        if let line = distanceMethodLine(flight) { lines.append(line) }
        lines.append(
            row(
                "Moving time", UTCTime.duration(flight.movingTime), "Elapsed",
                UTCTime.duration(flight.elapsed)))
        if let line = slipsLine(flight) { lines.append(line) }
        lines.append(
            row(
                "Elevation", gain(flight.knownElevationGain), "Avg HR / SPM",
                "\(whole(flight.averageHeartRate)) bpm / \(whole(flight.averageCadence)) spm"))
        if let elevation = flight.elevation {
            let range = elevation.minimum.flatMap { low in
                elevation.maximum.map { "\(signed(low)) to \(signed($0)) m" }
            }
            lines.append(
                row(
                    "Descent",
                    elevation.loss.map { $0.rounded() > 0 ? "−\(Int($0.rounded())) m" : "0 m" } ?? "--",
                    "Altitude",
                    (range ?? "--") + (elevation.source == .gps ? " (GPS)" : "")))
        }
        if let heartRate = heartRateLine(flight) { lines.append(heartRate) }
        if let bodyMass, let kcal = flight.kilocalories(bodyMass: bodyMass) {
            lines.append("  Calories      \(Int(kcal.rounded())) kcal (\(whole(bodyMass)) kg)")
        }
        let sinks = flight.alerts.filter { $0.kind == .sinkRate }.count
        let overs = flight.alerts.filter { $0.kind == .overspeed }.count
        lines.append("  GPWS alerts   \(flight.paceAlertCount) (SINK RATE \(sinks), OVERSPEED \(overs))")
        // A heart-rate mission's, or a flight that had any: a pace flight's summary is unchanged.
        if flight.mission?.heartRate != nil || flight.heartRateAlertCount > 0 {
            let highs = flight.alerts.filter { $0.kind == .heartRateHigh }.count
            let lows = flight.alerts.filter { $0.kind == .heartRateLow }.count
            lines.append("  HR alerts     \(flight.heartRateAlertCount) (HR HIGH \(highs), HR LOW \(lows))")
        }
        if !flight.splits.isEmpty {
            lines.append("")
            lines.append("  SPLIT    PACE         BPM        SPM        ELEV    AT")
            let pace = flight.paceExtremes
            let hr = flight.heartRateExtremes
            let cad = flight.cadenceExtremes
            for (i, split) in flight.splits.enumerated() {
                let label = Self.splitLabel(split, units: units)
                let paceMark = mark(i, high: pace?.fastest, low: pace?.slowest)
                let hrMark = mark(i, high: hr?.highest, low: hr?.lowest)
                let cadMark = mark(i, high: cad?.highest, low: cad?.lowest)
                lines.append(
                    "  " + padRight(label, 9)
                        + padRight(Pace.format(split.pace.map(units.pace)) + paceMark, 13)
                        + padRight(whole(split.heartRate) + hrMark, 11)
                        + padRight(whole(split.cadence) + cadMark, 11)
                        + padRight(gain(flight.elevation == nil ? nil : split.elevationGain), 8)
                        + UTCTime.duration(split.elapsedEnd))
            }
            if flight.splits.count >= 2 {
                lines.append("  ▲ fastest / highest   ▼ slowest / lowest")
            }
        }
        if flight.droppedTail >= 0.5 {
            lines.append(
                "  The last \(Int(flight.droppedTail.rounded())) m were under 100 m and made no split.")
        }
        lines += lapLines(flight, units: units)
        lines += timeInZoneLines(flight)
        if !flight.alerts.isEmpty {
            lines.append("")
            lines.append("  ALERTS")
            for alert in flight.alerts {
                let end = alert.endElapsed.map { " – " + UTCTime.duration($0) } ?? ""
                lines.append(
                    "  \(padRight(alert.kind.rawValue, 11)) \(UTCTime.duration(alert.startElapsed))\(end)")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func row(_ a: String, _ av: String, _ b: String, _ bv: String) -> String {
        "  " + padRight(a, 14) + padRight(av, 16) + padRight(b, 14) + bv
    }

    static func mark(_ index: Int, high: Int?, low: Int?) -> String {
        if index == high { return " ▲" }
        if index == low { return " ▼" }
        return ""
    }

    /// "3 KM", "2 MI" for a split of (nearly) one unit; a shorter one (the last partial split, a
    /// set split length) by its metres, "500M".
    static func splitLabel(_ split: Split, units: DistanceUnit) -> String {
        split.distance < units.metres * 0.95
            ? "\(Int(split.distance.rounded()))M" : "\(split.order) \(units.rawValue.uppercased())"
    }

    static func km(_ metres: Double) -> String {
        let hundredths = Int((metres / 10).rounded())
        return "\(hundredths / 100).\(UTCTime.pad(hundredths % 100, 2))"
    }

    /// `+15` or `0`, as the seed shows elevation gain; `--` without an altitude source.
    static func gain(_ metres: Double?) -> String {
        guard let metres else { return "--" }
        let value = Int(metres.rounded())
        return value > 0 ? "+\(value) m" : "0 m"
    }

    /// `+12` / `−3` / `0` metres relative to the start.
    static func signed(_ metres: Double) -> String {
        let value = Int(metres.rounded())
        return value > 0 ? "+\(value)" : value < 0 ? "−\(-value)" : "0"
    }

    static func whole(_ value: Double?) -> String {
        value.map { String(Int($0.rounded())) } ?? "--"
    }

    static func padRight(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }

    /// One PFD line: phase, distance, pace, altitude, heading, GPWS, pause.
    public static func pfdLine(_ pfd: PFD) -> String {
        var parts = [
            padRight(pfd.phase.rawValue.uppercased(), 9),
            UTCTime.duration(pfd.elapsed),
            "\(km(pfd.distance)) km",
            "\(Pace.format(pfd.pace)) /km",
            "ALT \(pfd.altitude.map { String(format1($0)) } ?? "--") m",
            "HDG \(pfd.heading.map { UTCTime.pad(Int($0.rounded()) % 360, 3) } ?? "---")",
            "HR \(whole(pfd.heartRate))",
            pfd.gpws.rawValue,
            "GPS \(pfd.signal.rawValue)",
        ]
        if let reason = pfd.pauseReason { parts.append("PAUSED (\(reason.rawValue))") }
        return parts.joined(separator: "  ")
    }

    static func format1(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}
