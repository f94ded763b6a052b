import RunWayCore

/// Time in heart-rate zones, as a Garmin watch writes it: a `time_in_zone` message (216) that
/// references the session (`reference_mesg` 18, `reference_index` 0), and the same times in the
/// session's own `time_in_hr_zone` (field 65) for readers that take them from there.
///
/// Garmin's arrays have a zone 0 below zone 1, so there are six: `time_in_hr_zone[0]` is the
/// moving time counted in none of zones 1…5 — below zone 1, or without a reading (the flight
/// does not tell the two apart) — so the six add up to the session's `total_timer_time`, as a
/// watch's do; `[1…5]` are the flight's zones 1…5. `hr_zone_high_boundary` is each zone's top in
/// bpm: zone 0's is zone 1's lower edge, zone 5's the maximum heart rate. `hr_calc_type` is
/// `percent_max_hr` or `percent_hrr` as the zones were drawn; `max_heart_rate` and (for the
/// reserve) `resting_heart_rate` are the zones' basis, not the flight's highest reading. No lap
/// has a `time_in_zone`: the splits carry no time in zone.
extension FITEncoder {
    /// Zone 0 and zones 1…5.
    static let zoneCount = 6

    private typealias F = FITWriter.Field
    private static let timeInZone = FITWriter.Definition(
        local: 8, global: 216,
        fields: [
            F(253, .uint32), F(0, .uint16), F(1, .uint16), F(2, .uint32, size: 4 * zoneCount),
            F(6, .uint8, size: zoneCount), F(10, .enumeration), F(11, .uint8), F(12, .uint8),
        ])
    /// FIT's `mesg_num` of the session.
    private static let sessionMessage: Int64 = 18

    /// FIT's `hr_zone_calc`.
    private enum ZoneCalculation: Int64 {
        case percentMaximum = 1
        case percentReserve = 2
    }

    /// Zone 0's and zones 1…5's moving time in FIT's milliseconds; nil without time in zone (or
    /// with other than five zones).
    static func zoneTimes(_ activity: ExportActivity) -> [Int64?]? {
        guard let times = activity.timeInZone, times.count == zoneCount - 1 else { return nil }
        let belowZone1 = max(0, activity.timerTime - times.reduce(0, +))
        return ([belowZone1] + times).map { Int64(($0 * 1000).rounded()) }
    }

    /// The session's `time_in_zone` at `time` (the session's timestamp); nothing without time
    /// in zone.
    static func writeSessionTimeInZone(
        _ w: inout FITWriter, _ activity: ExportActivity, at time: FITWriter.Value
    ) {
        guard let times = zoneTimes(activity) else { return }
        let zones = activity.heartRateZones
        var boundaries: [Int64?] =
            zones.map { zones in
                zones.lowerEdges.map { Int64($0.rounded()) } + [Int64(zones.maximum.rounded())]
            } ?? []
        if boundaries.count != zoneCount { boundaries = [] }
        let calculation: ZoneCalculation? = zones.map {
            switch $0.method {
            case .maximum: .percentMaximum
            case .reserve: .percentReserve
            }
        }
        w.write(
            timeInZone,
            [
                time, .number(sessionMessage), .number(0), .numbers(times), .numbers(boundaries),
                calculation.map { .number($0.rawValue) } ?? .none, FITWriter.scaled(zones?.maximum, 1),
                FITWriter.scaled(zones?.method == .reserve ? zones?.resting : nil, 1),
            ])
    }
}
