import RunWayCore

/// A flight's heart-rate zones as the reports show them: the JSON fields scripts read and the
/// Flight Summary's lines. Missing is `null` and `--`, never 0.
extension FlightReport {
    // MARK: JSON

    /// `max_heart_rate`, `time_in_zone_s` (moving seconds in zones 1…5, or null without heart
    /// rate) and `heart_rate_zones` (the zones they were counted in, or null).
    static func heartRateFields(_ flight: Flight) -> [(String, JSONValue)] {
        [
            ("max_heart_rate", .number(flight.maxHeartRate, places: 1)),
            ("time_in_zone_s", flight.timeInZone.map { .array($0.map { .number($0, places: 1) }) } ?? .null),
            ("heart_rate_zones", flight.heartRateZones.map(zonesJSON) ?? .null),
        ]
    }

    /// `{"method", "max", "resting", "lower_edges"}`: `resting` is null for zones drawn from the
    /// maximum alone (it takes no part in them); `lower_edges` are zones 1…5's in bpm.
    static func zonesJSON(_ zones: HeartRateZones) -> JSONValue {
        .object([
            ("method", .string(zones.method.rawValue)),
            ("max", .number(zones.maximum, places: 1)),
            ("resting", .number(zones.method == .reserve ? zones.resting : nil, places: 1)),
            ("lower_edges", .array(zones.lowerEdges.map { .number($0, places: 1) })),
        ])
    }

    // MARK: Flight Summary

    /// The maximum heart rate and the zones' basis, a line; nothing for a flight without heart
    /// rate or zones.
    static func heartRateLine(_ flight: Flight) -> String? {
        guard flight.maxHeartRate != nil || flight.timeInZone != nil else { return nil }
        let basis =
            flight.heartRateZones.map { zones in
                switch zones.method {
                case .maximum: "% of max \(whole(zones.maximum))"
                case .reserve: "HRR \(whole(zones.resting))–\(whole(zones.maximum))"
                }
            } ?? "--"
        return row("Max HR", "\(whole(flight.maxHeartRate)) bpm", "Zones", basis)
    }

    /// `TIME IN ZONE` and a line per zone: its bpm range, its moving time and its share of the
    /// time in zones 1…5; nothing without time in zone.
    static func timeInZoneLines(_ flight: Flight) -> [String] {
        guard let times = flight.timeInZone, !times.isEmpty else { return [] }
        let total = times.reduce(0, +)
        var lines = ["", "  TIME IN ZONE"]
        for (index, seconds) in times.enumerated() {
            let zone = index + 1
            let range = flight.heartRateZones?.range(of: zone).map {
                "\(whole($0.lowerBound))–\(whole($0.upperBound)) bpm"
            }
            let share = total > 0 ? "\(Int((seconds / total * 100).rounded())) %" : "--"
            lines.append(
                "  " + padRight("Z\(zone)", 4) + padRight(range ?? "--", 14)
                    + padRight(UTCTime.duration(seconds), 9) + share)
        }
        return lines
    }
}
